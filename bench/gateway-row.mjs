/**
 * What the one-gateway profilers share (`perf-gateway`, `gc-gateway`, `ab-trees`, `p50-trees`,
 * `wake-placement`): their command line, and one row in front of its own echo server, started and
 * stopped. A row is the floor (`floor-gateway.mjs`) or `switchboard serve` of a built checkout with a
 * fresh config and SQLite file and its token in `SWITCHBOARD_TOKEN`, as in production.
 */

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverEnv } from './clients.mjs';
import { freePort } from './free-port.mjs';

const benchDir = fileURLToPath(new URL('.', import.meta.url));
const echo = [process.execPath, `${benchDir}echo-server.mjs`];

/**
 * The profilers' command line: `option(name, fallback)` reads `--name VALUE`; `words` are the other
 * arguments (row names, eras, checkouts); `tree` is `--tree DIR`, resolved (default this checkout).
 */
export function commandLine(argv = process.argv.slice(2)) {
  const option = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
  const words = argv.filter((arg, index) => !arg.startsWith('--') && !argv[index - 1]?.startsWith('--'));
  return { option, words, tree: resolve(option('--tree', fileURLToPath(new URL('..', import.meta.url)))) };
}

/**
 * Starts a row: `tree` undefined for the floor (`floorScript`, by default bench/floor-gateway.mjs), else
 * the checkout whose `serve` runs (its files go to `files`, a path prefix in a scratch directory).
 * `nodeFlags` go before the script; `stdout` is the child's stdout (`'ignore'` or `'pipe'`). Resolves
 * the child, the MCP URL and the bearer token.
 */
export async function startRow({ tree, files, nodeFlags = [], stdout = 'ignore', floorScript = `${benchDir}floor-gateway.mjs` }) {
  const token = randomBytes(32).toString('hex');
  const port = await freePort();
  let child;
  if (tree === undefined) {
    child = spawn(process.execPath, [...nodeFlags, floorScript, String(port), token, '--', ...echo], { env: serverEnv(), stdio: ['ignore', stdout, 'inherit'] });
  } else {
    writeFileSync(`${files}.json`, JSON.stringify({ mcpServers: { echo: { command: echo[0], args: echo.slice(1), env: serverEnv() } } }));
    child = spawn(process.execPath, [...nodeFlags, join(resolve(tree), 'bin/switchboard.js'), 'serve', '--config', `${files}.json`, '--db', `${files}.db`, '--port', String(port), '--quiet'], {
      env: { ...serverEnv(), SWITCHBOARD_TOKEN: token },
      stdio: ['ignore', stdout, 'inherit'],
    });
  }
  return { child, url: `http://127.0.0.1:${port}/mcp`, token };
}

/** Stops a row (SIGTERM: serve finishes its calls and ends its upstream) and resolves once it exited. */
export function stopRow(child) {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', done);
    child.kill('SIGTERM');
  });
}

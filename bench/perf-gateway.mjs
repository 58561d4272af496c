#!/usr/bin/env node
/**
 * Where a gateway's CPU goes per call, kernel included (issue 17): `node bench/perf-gateway.mjs
 * [switchboard|floor] [2025|2026] [--seconds N] [--connections C]`. Starts the gateway (Node with
 * `--perf-basic-prof`, so JIT frames have names) in front of the echo server, warms it up with wrk, then
 * runs `perf record -p PID` (all of the process's threads: main, GC helpers, libuv pool) for the
 * measured wrk window only — start-up and module loading are not in it — and prints the process's
 * CPU per call (/proc/PID/stat over the window) and self time by symbol, as shares of the samples.
 * Needs Linux `perf` (Debian: linux-perf); prints why when it is missing. Environment knobs for digging:
 * PERF_SORT (perf report's --sort, default sym), PERF_LINES (rows, default 60), PERF_RAW (print every
 * line of the report), PERF_KEEP=FILE (keep perf.data), NODE_EXTRA (more node flags for serve, e.g.
 * `--trace-deopt`; serve's stdout is then shown).
 */

import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverEnv } from './clients.mjs';
import { echoCallEnv, wrkEcho } from './echo-call.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const benchDir = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const positional = args.filter((arg, index) => !arg.startsWith('--') && !args[index - 1]?.startsWith('--'));
const name = positional.find((arg) => arg === 'floor' || arg === 'switchboard') ?? 'switchboard';
const era = positional.includes('2026') ? '2026' : '2025';
const seconds = flag('--seconds', 8);
const connections = flag('--connections', 8);
if (spawnSync('perf', ['--version']).error !== undefined) {
  console.error('perf-gateway: Linux `perf` is not installed (Debian: apt-get install linux-perf)');
  process.exit(2);
}
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

const dir = mkdtempSync(join(tmpdir(), 'sb-perf-gateway-'));
const token = randomBytes(32).toString('hex');
const port = 20_000 + Math.floor(Math.random() * 20_000);
const echo = [process.execPath, `${benchDir}echo-server.mjs`];
let child;
if (name === 'floor') {
  child = spawn(process.execPath, ['--perf-basic-prof', `${benchDir}floor-gateway.mjs`, String(port), token, '--', ...echo], { env: serverEnv(), stdio: ['ignore', 'ignore', 'inherit'] });
} else {
  const config = join(dir, 'switchboard.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: echo[0], args: echo.slice(1), env: serverEnv() } } }));
  child = spawn(process.execPath, [...(process.env.NODE_EXTRA ? process.env.NODE_EXTRA.split(' ') : []), '--perf-basic-prof', `${root}bin/switchboard.js`, 'serve', '--config', config, '--db', join(dir, 'sb.db'), '--port', String(port), '--quiet'], { env: { ...serverEnv(), SWITCHBOARD_TOKEN: token }, stdio: ['ignore', process.env.NODE_EXTRA ? 'inherit' : 'ignore', 'inherit'] });
}
const url = `http://127.0.0.1:${port}/mcp`;
const wrkEnv = await echoCallEnv(url, token, era, 'perf');
const wrk = (secs) => wrkEcho(url, wrkEnv, connections, secs);
await wrk(2);
const ticks = () => {
  const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
const data = join(dir, 'perf.data');
const recorder = spawn('perf', ['record', '-F', '1999', '-g', '-o', data, '-p', String(child.pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
await new Promise((resolve) => setTimeout(resolve, 300));
const before = ticks();
const result = await wrk(seconds);
const cpuUs = ((ticks() - before) / CLK_TCK) * 1e6;
recorder.kill('SIGINT');
await new Promise((resolve) => recorder.once('exit', resolve));
const report = spawnSync('perf', ['report', '-i', data, '--stdio', '--no-children', '--sort', process.env.PERF_SORT ?? 'sym', '-g', 'none', '--percent-limit', '0.15'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
await new Promise((resolve) => {
  child.once('exit', resolve);
  child.kill('SIGTERM');
});
if (process.env.PERF_KEEP) spawnSync('cp', [data, process.env.PERF_KEEP]);
rmSync(dir, { recursive: true, force: true });
console.log(`${name} ${era} @${connections}: ${result.requests} calls in ${seconds} s (${Math.round(result.requests / seconds)}/s), ${result.bad} bad; ${(cpuUs / result.requests).toFixed(1)} µs of process CPU per call`);
console.log(report.stdout.split('\n').filter((line) => /^\s+\d/.test(line) || process.env.PERF_RAW).slice(0, Number(process.env.PERF_LINES ?? 60)).join('\n'));

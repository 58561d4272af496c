#!/usr/bin/env node
/**
 * What the young-generation GC does per call in `switchboard serve` under wrk (issue 17): `node
 * bench/gc-gateway.mjs [switchboard|floor] [2025|2026] [--seconds N] [--connections C] [--tree DIR]`.
 * Starts the gateway (from DIR's `bin/switchboard.js`, default this checkout) with `--trace-gc` in
 * front of the echo server, warms it with wrk for 2 s, then reads the trace lines printed during the
 * measured window: scavenges, their main-thread time, and how much the heap kept after each one grew
 * (what the scavenges promoted to the old generation, which only a full GC frees), plus full GCs.
 * Garbage that dies young is cheap; garbage promoted first is copied by every scavenge it survives.
 */

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverEnv } from './clients.mjs';
import { echoCallEnv, wrkEcho } from './echo-call.mjs';
import { freePort } from './free-port.mjs';
import { CLK_TCK, cpuTicks } from './wrk-run.mjs';

const benchDir = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const positional = args.filter((arg, index) => !arg.startsWith('--') && !args[index - 1]?.startsWith('--'));
const name = positional.includes('floor') ? 'floor' : 'switchboard';
const era = positional.includes('2026') ? '2026' : '2025';
const seconds = Number(option('--seconds', '8'));
const connections = Number(option('--connections', '64'));
const tree = resolve(option('--tree', fileURLToPath(new URL('..', import.meta.url))));

const dir = mkdtempSync(join(tmpdir(), 'sb-gc-gateway-'));
const token = randomBytes(32).toString('hex');
const port = await freePort();
const echo = [process.execPath, `${benchDir}echo-server.mjs`];
let child;
if (name === 'floor') {
  child = spawn(process.execPath, ['--trace-gc', `${benchDir}floor-gateway.mjs`, String(port), token, '--', ...echo], { env: serverEnv(), stdio: ['ignore', 'pipe', 'inherit'] });
} else {
  const config = join(dir, 'switchboard.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: echo[0], args: echo.slice(1), env: serverEnv() } } }));
  child = spawn(process.execPath, ['--trace-gc', join(tree, 'bin/switchboard.js'), 'serve', '--config', config, '--db', join(dir, 'sb.db'), '--port', String(port), '--quiet'], {
    env: { ...serverEnv(), SWITCHBOARD_TOKEN: token },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}
let measuring = false;
const lines = [];
let partial = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  const text = partial + chunk;
  const parts = text.split('\n');
  partial = parts.pop() ?? '';
  if (measuring) lines.push(...parts);
});
try {
  const url = `http://127.0.0.1:${port}/mcp`;
  const env = await echoCallEnv(url, token, era, 'gc');
  await wrkEcho(url, env, connections, 2);
  measuring = true;
  const before = cpuTicks(child.pid);
  const result = await wrkEcho(url, env, connections, seconds);
  const cpuUs = ((cpuTicks(child.pid) - before) / CLK_TCK) * 1e6;
  measuring = false;
  let scavenges = 0;
  let scavengeMs = 0;
  let fullGcs = 0;
  let grown = 0;
  let previous;
  for (const line of lines) {
    // "[pid:0x…]  6761 ms: Scavenge 87.5 (107.8) -> 75.1 (108.0) MB, 2.22 / 0.01 ms ..."
    const match = /(Scavenge|Mark-Compact)[^\d]*([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB, ([\d.]+)/.exec(line);
    if (match === null) continue;
    const after = Number(match[3]);
    if (match[1] === 'Scavenge') {
      scavenges++;
      scavengeMs += Number(match[4]);
      if (previous !== undefined) grown += after - previous;
    } else {
      fullGcs++;
    }
    previous = after;
  }
  const calls = result.requests;
  console.log(`${name} ${era} @${connections}, ${seconds} s: ${calls} calls (${Math.round(calls / seconds)}/s), ${result.bad} bad; ${(cpuUs / calls).toFixed(1)} µs of process CPU per call`);
  console.log(`  ${scavenges} scavenges, ${((scavengeMs * 1000) / calls).toFixed(2)} µs of main-thread scavenge per call, one every ${Math.round(calls / Math.max(1, scavenges))} calls`);
  console.log(`  heap kept after scavenges grew by ${(grown / Math.max(1, scavenges - 1)).toFixed(3)} MB per scavenge (promoted), ${((grown * 1048576) / calls).toFixed(0)} B per call; ${fullGcs} full GCs in the window`);
} finally {
  await new Promise((done) => {
    if (child.exitCode !== null) return done();
    child.once('exit', done);
    child.kill('SIGTERM');
  });
  rmSync(dir, { recursive: true, force: true });
}

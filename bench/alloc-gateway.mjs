#!/usr/bin/env node
/**
 * What `switchboard serve` allocates per tools/call (issue 17): `node bench/alloc-gateway.mjs [switchboard|floor]
 * [2025|2026] [--seconds N] [--top N]`. Starts serve (or the floor forwarder) in front of the echo server with a small preload that opens an
 * inspector session in the process, warms it up with wrk, then samples every allocation over the
 * measured wrk window — including objects already collected by a scavenge or a full GC, which
 * `node --heap-prof` leaves out (it reports only what is still alive) — and prints the bytes allocated
 * per call, by the function that allocated them. Garbage is most of what a gateway allocates, and what
 * it costs (allocation, scavenges, promotion) does not show as one line in a CPU profile.
 */

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverEnv } from './clients.mjs';
import { echoCallEnv, wrkEcho } from './echo-call.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const benchDir = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const era = args.includes('2026') ? '2026' : '2025';
const name = args.includes('floor') ? 'floor' : 'switchboard';
const seconds = flag('--seconds', 4);
const top = flag('--top', 30);

const dir = mkdtempSync(join(tmpdir(), 'sb-alloc-gateway-'));
const started = join(dir, 'started');
const profileFile = join(dir, 'alloc.heapprofile');
// SIGUSR2 once: start sampling (every 4 KiB allocated, collected objects kept); twice: write the profile.
writeFileSync(join(dir, 'preload.mjs'), `
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
const session = new Session();
session.connect();
const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
let sampling = false;
process.on('SIGUSR2', async () => {
  if (!sampling) {
    sampling = true;
    await post('HeapProfiler.enable');
    await post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    writeFileSync(${JSON.stringify(started)}, '1');
  } else {
    const { profile } = await post('HeapProfiler.stopSampling');
    writeFileSync(${JSON.stringify(profileFile)}, JSON.stringify(profile));
  }
});
`);
const config = join(dir, 'switchboard.json');
writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [`${benchDir}echo-server.mjs`], env: serverEnv() } } }));
const token = randomBytes(32).toString('hex');
const port = 20_000 + Math.floor(Math.random() * 20_000);
const command = name === 'floor' ? [`${benchDir}floor-gateway.mjs`, String(port), token, '--', process.execPath, `${benchDir}echo-server.mjs`] : [`${root}bin/switchboard.js`, 'serve', '--config', config, '--db', join(dir, 'sb.db'), '--port', String(port), '--quiet'];
const child = spawn(process.execPath, ['--import', join(dir, 'preload.mjs'), ...command], {
  env: { ...serverEnv(), SWITCHBOARD_TOKEN: token },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const url = `http://127.0.0.1:${port}/mcp`;
const wrkEnv = await echoCallEnv(url, token, era, 'alloc');
const wrk = (secs) => wrkEcho(url, wrkEnv, 8, secs);
/** Waits for `file` to appear, at most 20 s. */
async function appears(file) {
  const deadline = Date.now() + 20_000;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`alloc-gateway: serve did not write ${file} within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
await wrk(2);
child.kill('SIGUSR2');
await appears(started);
const result = await wrk(seconds);
child.kill('SIGUSR2');
await appears(profileFile);
let profile;
for (;;) {
  // The file is written in one call; a partial read is retried.
  try {
    profile = JSON.parse(readFileSync(profileFile, 'utf8'));
    break;
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
await new Promise((resolve) => {
  child.once('exit', resolve);
  child.kill('SIGTERM');
});
rmSync(dir, { recursive: true, force: true });

const bytes = new Map();
let total = 0;
const walk = (node) => {
  const frame = node.callFrame;
  const where = frame.url.replace(/^.*\/(dist|node_modules)\//, '').replace(/^file:\/\//, '');
  const name = `${frame.functionName || '(anonymous)'} ${where}${where === '' ? '' : `:${frame.lineNumber + 1}`}`;
  total += node.selfSize;
  if (node.selfSize > 0) bytes.set(name, (bytes.get(name) ?? 0) + node.selfSize);
  for (const next of node.children) walk(next);
};
walk(profile.head);
console.log(`${name} ${era}: ${result.requests} calls in ${seconds} s, ${result.bad} bad; ${Math.round(total / result.requests)} bytes allocated per call (sampled every 4 KiB, collected objects included)`);
for (const [name, size] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${String(Math.round(size / result.requests)).padStart(7)} B  ${name}`);

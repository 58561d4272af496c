#!/usr/bin/env node
/**
 * A CPU profile of `switchboard serve` under wrk (issue 17): `node bench/profile-gateway.mjs [2025|2026]
 * [--seconds N]`. Starts serve with `node --cpu-prof` in front of the echo server, opens a 2025 session
 * (or not, for 2026-07-28), runs wrk at 8 connections, stops the gateway (the profile is written at its
 * exit, to bench/results/profiles/) and prints self time by bucket (package, our dist/ file, node
 * core, GC) and the top functions, as shares of the busy (non-idle) samples.
 */

import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverEnv } from './clients.mjs';
import { echoCallEnv } from './echo-call.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const benchDir = fileURLToPath(new URL('.', import.meta.url));
const profileDir = `${benchDir}results/profiles/gateway`;
const era = process.argv[2] === '2026' ? '2026' : '2025';
const secondsIndex = process.argv.indexOf('--seconds');
const seconds = secondsIndex === -1 ? 8 : Number(process.argv[secondsIndex + 1]);

rmSync(profileDir, { recursive: true, force: true });
mkdirSync(profileDir, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), 'sb-profile-gateway-'));
const config = join(dir, 'switchboard.json');
writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [`${benchDir}echo-server.mjs`], env: serverEnv() } } }));
const token = randomBytes(32).toString('hex');
const port = 20_000 + Math.floor(Math.random() * 20_000);
const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=200', `${root}bin/switchboard.js`, 'serve', '--config', config, '--db', join(dir, 'sb.db'), '--port', String(port), '--quiet'], {
  env: { ...serverEnv(), SWITCHBOARD_TOKEN: token },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const url = `http://127.0.0.1:${port}/mcp`;
const wrkEnv = await echoCallEnv(url, token, era, 'profile');
const wrk = spawnSync('wrk', ['-t1', '-c8', `-d${seconds}s`, '-s', `${benchDir}wrk/post.lua`, url], {
  env: wrkEnv,
  encoding: 'utf8',
});
const result = JSON.parse(wrk.stdout.split('\n').find((line) => line.startsWith('WRK_RESULT ')).slice(11));
await new Promise((resolve) => {
  child.once('exit', resolve);
  child.kill('SIGTERM');
});
rmSync(dir, { recursive: true, force: true });

const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
const profile = JSON.parse(readFileSync(`${profileDir}/${file}`, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const counts = new Map();
for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
function bucketOf(frame) {
  const url = frame.url;
  if (frame.functionName === '(garbage collector)') return 'GC';
  if (frame.functionName === '(program)') return '(program: native, parser)';
  if (url === '') return `native ${frame.functionName || '(anonymous)'}`.slice(0, 40);
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const ours = /\/dist\/(.+)$/.exec(url);
  if (ours) return `ours: ${ours[1]}`;
  if (url.startsWith('node:')) return `node core ${url.slice(5).split('/')[0]}`;
  return url;
}
const parents = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
/** The bucket of the nearest caller that is a package or ours (node core and natives are charged to it). */
function ownerOf(id) {
  for (let current = id; current !== undefined; current = parents.get(current)) {
    const frame = nodes.get(current).callFrame;
    if (frame.url !== '' && !frame.url.startsWith('node:')) return bucketOf(frame);
  }
  return bucketOf(nodes.get(id).callFrame);
}
const owners = new Map();
const buckets = new Map();
const functions = new Map();
let busy = 0;
for (const [id, count] of counts) {
  const frame = nodes.get(id).callFrame;
  if (frame.functionName === '(idle)') continue;
  busy += count;
  const bucket = bucketOf(frame);
  const owner = ownerOf(id);
  owners.set(owner, (owners.get(owner) ?? 0) + count);
  buckets.set(bucket, (buckets.get(bucket) ?? 0) + count);
  const fn = `${frame.functionName || '(anonymous)'} ${bucket}`;
  functions.set(fn, (functions.get(fn) ?? 0) + count);
}
const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([key, count]) => `${((count / busy) * 100).toFixed(1).padStart(5)} %  ${key}`);
console.log(`${era}: ${result.requests} calls in ${seconds} s (${Math.round(result.requests / seconds)}/s), ${result.bad} bad; ${busy} busy samples (${((busy * 200) / result.requests).toFixed(0)} µs sampled per call)`);
console.log('\nby bucket (self time):');
console.log(top(buckets, 25).join('\n'));
console.log('\nby owner (self time, node core and natives charged to their nearest package or dist/ caller):');
console.log(top(owners, 25).join('\n'));
console.log('\ntop functions (self time):');
console.log(top(functions, 40).join('\n'));

// Inclusive (total) time of our functions: what each layer costs with everything it calls.
const totals = new Map();
function walk(id, stack) {
  const node = nodes.get(id);
  const frame = node.callFrame;
  const key = `${frame.functionName || '(anonymous)'} ${bucketOf(frame)}`;
  const self = frame.functionName === '(idle)' ? 0 : counts.get(id) ?? 0;
  const fresh = !stack.has(key);
  if (fresh) stack.add(key);
  let sum = self;
  for (const childId of node.children ?? []) sum += walk(childId, stack);
  if (fresh) {
    stack.delete(key);
    totals.set(key, (totals.get(key) ?? 0) + sum);
  }
  return sum;
}
walk(profile.nodes[0].id, new Set());
console.log('\ntop functions (total time, ours and node core http):');
console.log(top(new Map([...totals].filter(([key]) => key.includes('ours:') || key.includes('_http') || key.includes('GC'))), Number(process.env.PROFILE_TOTALS ?? 40)).join('\n'));

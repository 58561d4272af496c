#!/usr/bin/env node
/**
 * CPU profiles of a client's hot loops, taken with `node --cpu-prof` and summarized.
 *
 *   node bench/profile.mjs [CLIENT ...] [--calls N] [--lists N]      (default: connection multi)
 *
 * For each client it runs `node --cpu-prof bench/profile.mjs --target CLIENT`, which connects, warms
 * up, then runs N echo calls at 64 in flight and N listings of 1,003 tools, marking when each loop starts
 * and ends. The summary keeps only the samples inside a loop and attributes V8 self time to buckets (our
 * files in dist/, each package, node core, GC, native) and to the top functions. Profiles are written
 * to bench/results/profiles/ (open them in Chrome DevTools).
 */

import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const benchDir = fileURLToPath(new URL('.', import.meta.url));
const profileDir = `${benchDir}results/profiles`;
const SAMPLING_INTERVAL_US = 100;

const argv = process.argv.slice(2);
if (argv[0] === '--target') await target(argv[1], Number(argv[2]), Number(argv[3]), argv[4]);
else main(argv);

function option(args, name, fallback) {
  const index = args.indexOf(name);
  return index === -1 ? fallback : Number(args[index + 1]);
}

function main(args) {
  const calls = option(args, '--calls', 20_000);
  const lists = option(args, '--lists', 20);
  const clients = args.filter((arg, index) => !arg.startsWith('--') && !args[index - 1]?.startsWith('--'));
  mkdirSync(profileDir, { recursive: true });
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const out = [];
  for (const client of clients.length > 0 ? clients : ['connection', 'multi']) {
    const dir = `${profileDir}/${client}`;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const marksFile = `${dir}/marks.json`;
    const run = spawnSync(
      process.execPath,
      ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-interval=${SAMPLING_INTERVAL_US}`, `${benchDir}profile.mjs`, '--target', client, String(calls), String(lists), marksFile],
      { env, stdio: ['ignore', 'inherit', 'inherit'] },
    );
    if (run.status !== 0) throw new Error(`profiling ${client} failed (${run.status ?? run.signal})`);
    const profileFile = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    const profile = JSON.parse(readFileSync(`${dir}/${profileFile}`, 'utf8'));
    const marks = JSON.parse(readFileSync(marksFile, 'utf8'));
    out.push(`## ${client}\n`);
    out.push(summarizeLoop(profile, marks.calls, `${calls} echo calls at 64 in flight`, 'µs per call', (ms) => (ms * 1000) / calls));
    out.push(summarizeLoop(profile, marks.lists, `${lists} listings of 1,003 tools`, 'ms per listing', (ms) => ms / lists));
  }
  const text = out.join('\n');
  writeFileSync(`${profileDir}/summary.md`, text);
  process.stdout.write(text);
}

/** The profiled process: connect, warm up, then the two marked loops. */
async function target(clientName, calls, lists, marksFile) {
  const { clientOf } = await import('./clients.mjs');
  const server = fileURLToPath(new URL('./echo-server.mjs', import.meta.url));
  const client = clientOf(clientName);
  await client.load();
  const marks = {};
  const now = () => Number(process.hrtime.bigint() / 1000n);
  let handle = await client.connect([{ name: 's0', command: process.execPath, args: [server] }]);
  try {
    const loop = async (total) => {
      let started = 0;
      await Promise.all(
        Array.from({ length: 64 }, async () => {
          while (started < total) {
            started++;
            await handle.echo('hello');
          }
        }),
      );
    };
    await loop(2_000);
    let cpu = process.cpuUsage();
    marks.calls = { start: now() };
    await loop(calls);
    marks.calls.end = now();
    marks.calls.cpuMs = cpuMs(process.cpuUsage(cpu));
  } finally {
    await handle.close();
  }
  handle = await client.connect([{ name: 's0', command: process.execPath, args: [server, '--extra-tools', '1000', '--cache-list'] }], { listChangedImmediately: true });
  try {
    const listOnce = async () => (handle.refreshCatalog !== undefined ? handle.refreshCatalog() : handle.list());
    for (let index = 0; index < 3; index++) await listOnce();
    const cpu = process.cpuUsage();
    marks.lists = { start: now() };
    for (let index = 0; index < lists; index++) await listOnce();
    marks.lists.end = now();
    marks.lists.cpuMs = cpuMs(process.cpuUsage(cpu));
  } finally {
    await handle.close();
  }
  writeFileSync(marksFile, JSON.stringify(marks));
}

function cpuMs(usage) {
  return (usage.user + usage.system) / 1000;
}

/** Where a frame's code lives. */
function bucketOf(frame) {
  const { url, functionName } = frame;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(program)') return 'program (native, unattributed)';
  if (url === '') return 'native / builtins';
  if (url.startsWith('node:')) return 'node core';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules !== -1) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const dist = url.indexOf('/dist/');
  if (dist !== -1) return `switchboard ${url.slice(dist + '/dist/'.length)}`;
  if (url.includes('/bench/')) return `bench ${url.slice(url.indexOf('/bench/') + 7)}`;
  return url;
}

function summarizeLoop(profile, mark, title, unit, scale) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map();
  let time = profile.startTime;
  let total = 0;
  for (let index = 0; index < profile.samples.length; index++) {
    time += profile.timeDeltas[index];
    if (time < mark.start || time > mark.end) continue;
    const delta = profile.timeDeltas[index + 1] ?? SAMPLING_INTERVAL_US;
    selfUs.set(profile.samples[index], (selfUs.get(profile.samples[index]) ?? 0) + delta);
  }
  const buckets = new Map();
  const functions = new Map();
  for (const [id, us] of selfUs) {
    const frame = nodes.get(id).callFrame;
    const bucket = bucketOf(frame);
    if (bucket === 'idle') continue;
    total += us;
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + us);
    const name = `${frame.functionName || '(anonymous)'} ${bucket.startsWith('switchboard') || bucket.startsWith('bench') ? bucket.split(' ')[1] : bucket}${frame.lineNumber >= 0 ? `:${frame.lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
  }
  const fmt = (us) => scale(us / 1000).toFixed(unit.startsWith('µs') ? 2 : 3);
  const lines = [`### ${title}: ${fmt(total)} ${unit} sampled (process CPU ${fmt(mark.cpuMs * 1000)} ${unit}, profiler included)\n`];
  lines.push(`| bucket | ${unit} | share |\n| --- | ---: | ---: |`);
  for (const [bucket, us] of [...buckets].sort((a, b) => b[1] - a[1]).slice(0, 14)) lines.push(`| ${bucket} | ${fmt(us)} | ${((us / total) * 100).toFixed(1)} % |`);
  lines.push(`\n| top self-time function | ${unit} | share |\n| --- | ---: | ---: |`);
  for (const [name, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 20)) lines.push(`| \`${name}\` | ${fmt(us)} | ${((us / total) * 100).toFixed(1)} % |`);
  return `${lines.join('\n')}\n`;
}

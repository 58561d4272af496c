/**
 * One client, one group of cases, in a fresh process (`node --expose-gc bench/worker.mjs CLIENT GROUP
 * OUT_FILE [--quick]`), so import time, JIT state, heap and RSS belong to that client alone. Client CPU
 * is `process.cpuUsage()` (user + system) around the measured loop: the servers are other processes.
 * Writes its figures as JSON to OUT_FILE.
 */

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { clientOf } from './clients.mjs';

const [clientName, group, outFile, ...flags] = process.argv.slice(2);
const quick = flags.includes('--quick');
const serverScript = fileURLToPath(new URL('./echo-server.mjs', import.meta.url));

/** Call counts per case (full / --quick). */
const SIZES = quick
  ? { seqWarm: 100, seq: 600, parWarm: 300, par: 2000, kb1: 800, kb100: 120, lists: 4 }
  : { seqWarm: 200, seq: 2000, parWarm: 500, par: 5000, kb1: 2000, kb100: 400, lists: 6 };
const IN_FLIGHT = 64;

function serverOf(index, extraArgs = []) {
  return { name: `s${index}`, command: process.execPath, args: [serverScript, ...extraArgs] };
}

function cpuMsSince(start) {
  const usage = process.cpuUsage(start);
  return (usage.user + usage.system) / 1000;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

function mib(bytes) {
  return bytes / 1048576;
}

/** Runs `total` calls of `call` with `lanes` in flight at any time. */
async function runInFlight(lanes, total, call) {
  let started = 0;
  const lane = async () => {
    while (started < total) {
      started++;
      await call();
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
}

/** Calls/s and client CPU per call for `total` calls at `lanes` in flight. */
async function throughput(lanes, total, call) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await runInFlight(lanes, total, call);
  const ms = performance.now() - started;
  return { callsPerSecond: (total / ms) * 1000, cpuUsPerCall: (cpuMsSince(cpu) * 1000) / total };
}

function assertEcho(result, length) {
  const size = JSON.stringify(result).length;
  if (size < length) throw new Error(`echo of ${length} characters came back with ${size}`);
}

async function groupCalls(client, result) {
  let started = performance.now();
  const handle = await client.connect([serverOf(0)]);
  result.connect1Ms = performance.now() - started;
  try {
    for (let index = 0; index < SIZES.seqWarm; index++) await handle.echo('hello');
    const times = new Float64Array(SIZES.seq);
    const cpu = process.cpuUsage();
    for (let index = 0; index < SIZES.seq; index++) {
      const callStarted = performance.now();
      await handle.echo('hello');
      times[index] = performance.now() - callStarted;
    }
    result.seqCpuUsPerCall = (cpuMsSince(cpu) * 1000) / SIZES.seq;
    const sorted = [...times].sort((a, b) => a - b);
    result.seqP50Us = percentile(sorted, 0.5) * 1000;
    result.seqP99Us = percentile(sorted, 0.99) * 1000;

    await runInFlight(IN_FLIGHT, SIZES.parWarm, () => handle.echo('hello'));
    const par = await throughput(IN_FLIGHT, SIZES.par, () => handle.echo('hello'));
    result.par64CallsPerSecond = par.callsPerSecond;
    result.par64CpuUsPerCall = par.cpuUsPerCall;

    const kb1 = 'x'.repeat(1024);
    assertEcho(await handle.echo(kb1), 1024);
    const small = await throughput(IN_FLIGHT, SIZES.kb1, () => handle.echo(kb1));
    result.kb1CallsPerSecond = small.callsPerSecond;
    result.kb1CpuUsPerCall = small.cpuUsPerCall;

    const kb100 = 'x'.repeat(100 * 1024);
    assertEcho(await handle.echo(kb100), 100 * 1024);
    const large = await throughput(IN_FLIGHT, SIZES.kb100, () => handle.echo(kb100));
    result.kb100CallsPerSecond = large.callsPerSecond;
    result.kb100CpuUsPerCall = large.cpuUsPerCall;

    started = performance.now();
    await Promise.all(Array.from({ length: 64 }, () => handle.sleep(50)));
    result.sleep64Ms = performance.now() - started;
  } finally {
    await handle.close();
  }
}

async function groupConnect20(client, result) {
  const servers = Array.from({ length: 20 }, (_, index) => serverOf(index));
  const started = performance.now();
  const handle = await client.connect(servers);
  result.connect20Ms = performance.now() - started;
  try {
    await Promise.all(servers.map((_, index) => handle.echo('hello', index)));
    globalThis.gc?.();
    const memory = process.memoryUsage();
    result.rss20MiB = mib(memory.rss);
    result.heap20MiB = mib(memory.heapUsed);
  } finally {
    await handle.close();
  }
}

async function groupList1000(client, result) {
  const started = performance.now();
  const handle = await client.connect([serverOf(0, ['--extra-tools', '1000', '--cache-list'])], { listChangedImmediately: true });
  result.connect1000Ms = performance.now() - started;
  try {
    const walls = [];
    const cpus = [];
    for (let index = 0; index < SIZES.lists; index++) {
      if (handle.refreshCatalog !== undefined) {
        const refresh = await handle.refreshCatalog();
        if (refresh.count < 1000) throw new Error(`listed ${refresh.count} tools, expected 1003`);
        walls.push(refresh.ms);
        cpus.push(refresh.cpuMs);
        continue;
      }
      const cpu = process.cpuUsage();
      const listStarted = performance.now();
      const count = await handle.list();
      walls.push(performance.now() - listStarted);
      cpus.push(cpuMsSince(cpu));
      if (count < 1000) throw new Error(`listed ${count} tools, expected 1003`);
    }
    result.list1000ColdMs = walls[0];
    result.list1000Ms = median(walls.slice(1));
    result.list1000CpuMs = median(cpus.slice(1));
  } finally {
    await handle.close();
  }
}

const GROUPS = { calls: groupCalls, connect20: groupConnect20, list1000: groupList1000 };

async function main() {
  const client = clientOf(clientName);
  const run = GROUPS[group];
  if (run === undefined) throw new Error(`unknown group "${group}"`);
  const result = { client: clientName, group };
  const importStarted = performance.now();
  await client.load();
  result.importMs = performance.now() - importStarted;
  globalThis.gc?.();
  result.rssIdleMiB = mib(process.memoryUsage().rss);
  await run(client, result);
  writeFileSync(outFile, JSON.stringify(result));
}

main().then(
  // Some libraries leave handles open (timers, telemetry); the figures are written, so end here.
  () => process.exit(0),
  (error) => {
    writeFileSync(outFile, JSON.stringify({ client: clientName, group, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }));
    process.exit(1);
  },
);

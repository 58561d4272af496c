#!/usr/bin/env node
/**
 * Where a gateway's CPU goes per call, kernel included (issue 17): `node bench/perf-gateway.mjs
 * [switchboard|floor] [2025|2026] [--seconds N] [--connections C] [--tree DIR]`. Starts the gateway (Node with
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
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { echoCallEnv, wrkEcho } from './echo-call.mjs';
import { commandLine, startRow, stopRow } from './gateway-row.mjs';
import { CLK_TCK, cpuTicks } from './wrk-run.mjs';

const { option, words, tree } = commandLine();
const name = words.includes('floor') ? 'floor' : 'switchboard';
const era = words.includes('2026') ? '2026' : '2025';
const seconds = Number(option('--seconds', '8'));
const connections = Number(option('--connections', '8'));
if (spawnSync('perf', ['--version']).error !== undefined) {
  console.error('perf-gateway: Linux `perf` is not installed (Debian: apt-get install linux-perf)');
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), 'sb-perf-gateway-'));
const extra = name === 'floor' || !process.env.NODE_EXTRA ? [] : process.env.NODE_EXTRA.split(' ');
const { child, url, token } = await startRow({
  tree: name === 'floor' ? undefined : tree,
  files: join(dir, 'switchboard'),
  nodeFlags: [...extra, '--perf-basic-prof'],
  stdout: extra.length > 0 ? 'inherit' : 'ignore',
});
const wrkEnv = await echoCallEnv(url, token, era, 'perf');
const wrk = (secs) => wrkEcho(url, wrkEnv, connections, secs);
await wrk(2);
const ticks = () => cpuTicks(child.pid);
const data = join(dir, 'perf.data');
const recorder = spawn('perf', ['record', '-F', '1999', '-g', '-o', data, '-p', String(child.pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
await new Promise((resolve) => setTimeout(resolve, 300));
const before = ticks();
const result = await wrk(seconds);
const cpuUs = ((ticks() - before) / CLK_TCK) * 1e6;
recorder.kill('SIGINT');
await new Promise((resolve) => recorder.once('exit', resolve));
const report = spawnSync('perf', ['report', '-i', data, '--stdio', '--no-children', '--sort', process.env.PERF_SORT ?? 'sym', '-g', 'none', '--percent-limit', '0.15'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
await stopRow(child);
if (process.env.PERF_KEEP) spawnSync('cp', [data, process.env.PERF_KEEP]);
rmSync(dir, { recursive: true, force: true });
console.log(`${name} ${era} @${connections}: ${result.requests} calls in ${seconds} s (${Math.round(result.requests / seconds)}/s), ${result.bad} bad; ${(cpuUs / result.requests).toFixed(1)} µs of process CPU per call`);
console.log(report.stdout.split('\n').filter((line) => /^\s+\d/.test(line) || process.env.PERF_RAW).slice(0, Number(process.env.PERF_LINES ?? 60)).join('\n'));

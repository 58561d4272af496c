#!/usr/bin/env node
/**
 * Where a call at one connection spends its time between the processes (issue 17): `node
 * bench/wake-placement.mjs [switchboard|floor] [2025|2026] [--seconds N] [--tree DIR]`. Starts the
 * gateway (from DIR, default this checkout) in front of the echo server, warms it with wrk at one
 * connection, then records the scheduler's switches and wake-ups and the processes' reads, writes
 * and polls machine-wide (`perf record -a`, perf's own events left out) for one more window, and
 * prints per call: each process's own time, each hand-over between them, and how often wrk ran on
 * the gateway's CPU. Needs Linux `perf` with tracepoints (Debian: linux-perf) and root.
 *
 * The trace's own overhead slows every step by a few µs; compare rows recorded the same way.
 */

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { echoCallEnv, wrkEcho } from './echo-call.mjs';
import { commandLine, startRow, stopRow } from './gateway-row.mjs';
import { parseTraceLine, wakePlacement } from './wake-trace.mjs';

const { option, words, tree } = commandLine();
const name = words.includes('floor') ? 'floor' : 'switchboard';
const era = words.includes('2026') ? '2026' : '2025';
const seconds = Number(option('--seconds', '3'));
const EVENTS = [
  'sched:sched_switch',
  'sched:sched_wakeup',
  'syscalls:sys_enter_read',
  'syscalls:sys_exit_read',
  'syscalls:sys_enter_write',
  'syscalls:sys_enter_writev',
  'syscalls:sys_enter_epoll_pwait',
  'syscalls:sys_exit_epoll_pwait',
].join(',');

if (spawnSync('perf', ['--version']).error !== undefined) {
  console.error('wake-placement: Linux `perf` is not installed (Debian: apt-get install linux-perf)');
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), 'sb-wake-placement-'));
const { child: gateway, url, token } = await startRow({ tree: name === 'floor' ? undefined : tree, files: join(dir, 'switchboard') });
const data = join(dir, 'perf.data');
try {
  const env = await echoCallEnv(url, token, era, 'wake');
  await wrkEcho(url, env, 1, 2);
  const upstream = Number(readFileSync(`/proc/${gateway.pid}/task/${gateway.pid}/children`, 'utf8').trim().split(/\s+/)[0]);
  const recorder = spawn('perf', ['record', '-a', '-e', EVENTS, '--exclude-perf', '-o', data], { stdio: ['ignore', 'ignore', 'pipe'] });
  let recorderOutput = '';
  recorder.stderr.on('data', (chunk) => (recorderOutput += chunk));
  // Listened to at once: a perf that refuses its arguments exits before the window starts.
  const recorded = new Promise((resolveExit) => recorder.once('exit', resolveExit));
  // perf prints nothing when it is ready; a short wait lets it open its buffers before the window.
  await new Promise((resolveWait) => setTimeout(resolveWait, 500));
  const result = await wrkEcho(url, env, 1, seconds);
  recorder.kill('SIGINT');
  const code = await recorded;
  if (code !== 0 && code !== null) throw new Error(`perf record failed (${code}): ${recorderOutput.trim()}`);
  const script = spawn('perf', ['script', '-i', data, '-F', 'comm,tid,cpu,time,event,trace'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const events = [];
  const perThread = new Map();
  for await (const line of createInterface({ input: script.stdout })) {
    const event = parseTraceLine(line);
    if (event === undefined) continue;
    events.push(event);
    if (event.comm === 'wrk') perThread.set(event.tid, (perThread.get(event.tid) ?? 0) + 1);
  }
  // The measuring wrk is the one that did the most in the window (the warm-up's has ended).
  const client = [...perThread].sort((a, b) => b[1] - a[1])[0]?.[0];
  const placement = wakePlacement(events, { gateway: gateway.pid, upstream, client });
  console.log(`${name} ${era} @1, ${seconds} s traced: ${result.requests} calls, ${result.bad} bad, wrk p50 ${result.p50Us} µs; ${placement.calls} calls read from the trace`);
  console.log('per call, medians in µs:');
  for (const [step, us] of Object.entries(placement.medianUs)) console.log(`  ${step.padEnd(16)} ${String(us).padStart(5)}`);
  const percent = (share) => `${Math.round(share * 100)} %`;
  console.log(`wrk on the gateway's CPU at the answer: ${percent(placement.share.clientWithGateway)}; upstream on the gateway's CPU: ${percent(placement.share.upstreamWithGateway)}; gateway preempted right after its answer: ${percent(placement.share.gatewayPreemptedAfterAnswer)}`);
} finally {
  await stopRow(gateway);
  rmSync(dir, { recursive: true, force: true });
}

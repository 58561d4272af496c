/**
 * What the wrk-driven bench workers share (bench/wrk-worker.mjs, bench/cluster-worker.mjs): one wrk run
 * of bench/wrk/post.lua, and a process's CPU time from /proc/PID/stat.
 */

import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const benchDir = fileURLToPath(new URL('.', import.meta.url));

/** Clock ticks per second of /proc/PID/stat's times. */
export const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** utime + stime of process `pid` (all its threads; not its children), in clock ticks. */
export function cpuTicks(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of stat (utime, stime); the slice starts at field 3.
  return Number(fields[11]) + Number(fields[12]);
}

/** A first request id for one wrk run (post.lua counts up from it): runs on one session never share ids. */
export function wrkIdBase() {
  return String(Math.floor(Math.random() * 2 ** 40) + 2);
}

/**
 * wrk (one thread) POSTing `body` with `headers` at `connections` for `seconds`; resolves post.lua's
 * figures. `cpu`: the CPU wrk runs on (through taskset), else wherever the scheduler puts it.
 */
export function runWrk(url, connections, seconds, { body, headers, expect }, cpu) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, WRK_BODY: JSON.stringify(body), WRK_EXPECT: expect, WRK_ID_BASE: wrkIdBase(), WRK_HEADERS: Object.entries(headers).map(([key, value]) => `${key}: ${value}`).join('\n') };
    const wrk = ['wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', `${benchDir}wrk/post.lua`, url];
    const command = cpu === undefined ? wrk : ['taskset', '-c', String(cpu), ...wrk];
    const child = spawn(command[0], command.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = output.split('\n').find((candidate) => candidate.startsWith('WRK_RESULT '));
      if (line === undefined) reject(new Error(`wrk exited with ${code} without a result: ${output.slice(0, 500)}`));
      else resolve(JSON.parse(line.slice('WRK_RESULT '.length)));
    });
  });
}

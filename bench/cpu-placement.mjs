/**
 * Fixed CPU placement for the gateway case's one-connection windows (bench/README.md, eighth pass).
 * At one connection a call is a chain of four wake-ups (wrk → gateway → upstream → gateway → wrk).
 * On this kind of VM an idle vCPU halts at once (`guest_halt_poll_ns` 0), and waking a halted one
 * costs 30–50 µs: a call's latency then depends on how many of the four wake-ups the scheduler sends
 * to the other CPU, which it decides anew from window to window. With wrk on one CPU and the row's
 * whole process tree (gateway, its threads, its upstream) on the other, every row pays the same two.
 */

import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { readFileSync, readdirSync } from 'node:fs';

/** The CPU wrk runs on, and the one the measured row's processes run on. */
export const LOAD_CPU = 0;
export const ROW_CPU = 1;

/** Why fixed placement cannot be used here, or undefined when it can. */
export function placementUnavailable() {
  if (process.platform !== 'linux') return 'needs Linux (taskset, /proc)';
  if (availableParallelism() < 2) return 'needs at least 2 CPUs';
  if (spawnSync('taskset', ['-V']).error !== undefined) return 'taskset (util-linux) is not installed';
  return undefined;
}

/** `pid` and every process below it (a gateway's upstream, a shell's child). */
function processTree(pid) {
  const tree = [pid];
  for (let index = 0; index < tree.length; index++) {
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${tree[index]}/task`);
    } catch {
      continue; // gone meanwhile
    }
    for (const task of tasks) {
      try {
        for (const child of readFileSync(`/proc/${tree[index]}/task/${task}/children`, 'utf8').trim().split(/\s+/)) if (child !== '') tree.push(Number(child));
      } catch {}
    }
  }
  return tree;
}

/** Sets the CPUs of every thread of `pid`'s process tree (`cpus`: a taskset list such as "1" or "0-1"). */
export function placeTree(pid, cpus) {
  for (const member of processTree(pid)) {
    const result = spawnSync('taskset', ['-a', '-p', '-c', cpus, String(member)], { encoding: 'utf8' });
    if (result.status !== 0 && existsProcess(member)) throw new Error(`taskset -a -p -c ${cpus} ${member} failed: ${result.stderr.trim()}`);
  }
}

/** The CPUs this process may run on, as a taskset list (what {@link placeTree} puts a row back on). */
export function ownCpus() {
  const result = spawnSync('taskset', ['-c', '-p', String(process.pid)], { encoding: 'utf8' });
  const list = /:\s*([0-9,-]+)\s*$/.exec(result.stdout)?.[1];
  if (result.status !== 0 || list === undefined) throw new Error(`taskset -c -p ${process.pid} failed: ${result.stderr.trim() || result.stdout.trim()}`);
  return list;
}

function existsProcess(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

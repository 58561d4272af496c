/**
 * @module connection/process-group
 * Servers run in their own process group so that closing one ends its whole tree: `npx` and its
 * child, a shell and what it started. The SDK's stdio transport kills only the direct child
 * (modelcontextprotocol/typescript-sdk#2023).
 */

import { readdirSync, readFileSync } from 'node:fs';

const tracked = new Set<number>();
let exitHookInstalled = false;

/** Remembers a live group so it is killed if this process exits without closing it. */
export function trackProcessGroup(pgid: number): void {
  tracked.add(pgid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // 'exit' handlers must be synchronous; process.kill is.
    process.once('exit', () => {
      for (const group of tracked) signalProcessGroup(group, 'SIGKILL');
    });
  }
}

/** Forgets a group that has been ended. */
export function untrackProcessGroup(pgid: number): void {
  tracked.delete(pgid);
}

/** Sends `signal` to every process of the group; false when the group no longer exists. */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(process.platform === 'win32' ? pgid : -pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * True while a process of the group is running. Zombies do not count: where PID 1 does not reap
 * orphans (some containers), killed grandchildren stay as zombies forever.
 */
export function isProcessGroupAlive(pgid: number): boolean {
  if (!signalProcessGroup(pgid, 0)) return false;
  if (process.platform !== 'linux') return true;
  return livingGroupMembers(pgid).length > 0;
}

/** PIDs of the non-zombie processes in a group (Linux, from /proc). */
export function livingGroupMembers(pgid: number): number[] {
  const members: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Format: "pid (comm) state ppid pgrp …"; comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] !== 'Z' && fields[0] !== 'X' && Number(fields[2]) === pgid) members.push(Number(entry));
  }
  return members;
}

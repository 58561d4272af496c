/**
 * Process inspection for leak checks (Linux /proc). Zombies are not counted as alive: where PID 1
 * does not reap orphans (as on this machine), killed grandchildren stay as zombies.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
  cmdline: string;
}

export function listProcesses(): ProcessInfo[] {
  const result: ProcessInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      result.push({ pid: Number(entry), state: fields[0] ?? '?', ppid: Number(fields[1]), pgid: Number(fields[2]), cmdline });
    } catch {
      // The process ended while we looked.
    }
  }
  return result;
}

/** Living (non-zombie) processes. */
export function livingProcesses(): ProcessInfo[] {
  return listProcesses().filter((process) => process.state !== 'Z' && process.state !== 'X');
}

/** True while `pid` runs (zombies count as gone). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Living processes in process group `pgid`. */
export function groupMembers(pgid: number): ProcessInfo[] {
  return livingProcesses().filter((process) => process.pgid === pgid);
}

/** Descendants of `pid` (by parent links; orphans re-parented to PID 1 are not found). */
export function descendantsOf(pid: number, processes: ProcessInfo[] = livingProcesses()): ProcessInfo[] {
  const result: ProcessInfo[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const process of processes) {
      if (process.ppid === parent) {
        result.push(process);
        queue.push(process.pid);
      }
    }
  }
  return result;
}

/** Waits until `check` is true, polling every 20 ms, failing after `timeoutMs`. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Stops a process started `detached` (the leader of its own group): SIGTERM and a wait for its exit,
 * then SIGKILL on whatever of the group is left, and a wait until none of it is.
 */
export async function stopProcessGroup(pgid: number, hasExited: () => boolean, label: string): Promise<void> {
  if (!hasExited()) {
    try {
      process.kill(pgid, 'SIGTERM');
    } catch {
      // Already gone.
    }
    await waitFor(hasExited, 10_000, `${label} to shut down`).catch(() => undefined);
  }
  if (groupMembers(pgid).length > 0) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  await waitFor(() => groupMembers(pgid).length === 0, 5_000, `the process group of ${label} (${pgid}) to end`);
}

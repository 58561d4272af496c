/**
 * @module connection/start-within-deadline
 * One start attempt's deadline, counted from the moment the server is spawned (its start slot is
 * granted), so time spent waiting behind other servers' starts never counts against it.
 */

import type { StartLimiter } from './start-limiter.js';

/** How long a start waited for its slot and took once spawned (ms). */
export interface StartTiming {
  queuedMs: number;
  handshakeMs: number;
  /** The deadline that applied, from spawn. */
  deadlineMs: number;
}

/** Options of {@link startWithinDeadline}. */
export interface StartDeadlineOptions {
  /** Absent: no waiting (HTTP servers spawn nothing). */
  limiter: StartLimiter | undefined;
  deadlineMs: number;
  /** Aborted with `deadlineError()` when the deadline passes; aborting it while queued gives up the wait. */
  abort: AbortController;
  deadlineError: () => Error;
  /** Called once the attempt ends, either way. */
  onTiming?: (timing: StartTiming) => void;
  /** @default Date.now */
  now?: () => number;
}

/** Waits for a start slot, then runs `attempt` with the deadline running; the slot is freed when it ends. */
export async function startWithinDeadline<T>(options: StartDeadlineOptions, attempt: () => Promise<T>): Promise<T> {
  const now = options.now ?? Date.now;
  const queuedAt = now();
  const release = options.limiter === undefined ? undefined : await options.limiter.acquire(options.abort.signal);
  const spawnedAt = now();
  const timer = setTimeout(() => options.abort.abort(options.deadlineError()), options.deadlineMs);
  try {
    return await attempt();
  } finally {
    clearTimeout(timer);
    release?.();
    options.onTiming?.({ queuedMs: spawnedAt - queuedAt, handshakeMs: now() - spawnedAt, deadlineMs: options.deadlineMs });
  }
}

/**
 * @module client/servers/drain-calls
 * Letting something that is being taken out of service finish its running calls, within a bound:
 * a server removed by a reconfiguration, or (in the pool) a replaced client generation.
 */

/** Longest wait for a removed or replaced server's running calls before it is closed anyway. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 60_000;

/** A count of running calls; `idle` is called (by {@link endCall}) when it reaches 0. */
export interface Drainable {
  running: number;
  idle: (() => void) | undefined;
}

/** One call of `target` has ended (answered or failed). */
export function endCall(target: Drainable): void {
  target.running--;
  if (target.running === 0) target.idle?.();
}

/**
 * Resolves when `target` has no running calls, or after `timeoutMs`, whichever is first. Calling
 * `target.idle()` ends the wait at once (closing does, to stop waiting).
 */
export function drainCalls(target: Drainable, timeoutMs: number = DEFAULT_DRAIN_TIMEOUT_MS): Promise<void> {
  if (target.running <= 0) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    // A drain never keeps the process alive by itself.
    timer.unref();
    target.idle = () => {
      clearTimeout(timer);
      resolve();
    };
  });
}

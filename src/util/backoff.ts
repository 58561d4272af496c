/**
 * @module util/backoff
 * Exponential backoff with jitter, as a pure function (tests pass their own `random`).
 */

/** Options of {@link backoffDelay}. */
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  /** Spread around the delay, as a fraction: 0.2 means ±20 %. @default 0.2 */
  jitter?: number;
  /** @default Math.random */
  random?: () => number;
}

/** The delay before attempt `attempt` (0 for the first retry): initial × 2^attempt, capped, jittered. */
export function backoffDelay(attempt: number, options: BackoffOptions): number {
  const jitter = options.jitter ?? 0.2;
  const random = options.random ?? Math.random;
  const base = Math.min(options.maxMs, options.initialMs * 2 ** Math.max(0, attempt));
  return Math.max(0, Math.round(base * (1 - jitter + 2 * jitter * random())));
}

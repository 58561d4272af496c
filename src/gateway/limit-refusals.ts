/**
 * @module gateway/limit-refusals
 * How often each of the gateway's caps refused something (a session, a stream, a connection), for
 * `switchboard_limit_refusals_total{limit}` on /metrics: a cap that keeps refusing is either too low
 * or holding off a flood, and the administrator needs to see which before users report 429s.
 */

/** The caps counted, by their option names (each is shown, at 0 until it first refuses). */
export const COUNTED_LIMITS = [
  'maxSessionsPerUser',
  'maxSessions',
  'maxListenStreamsPerUser',
  'maxListenStreams',
  'maxEventStreamsPerUser',
  'maxEventStreams',
  'maxConnections',
] as const;

/** Refusals by limit. */
export class LimitRefusals {
  readonly #counts = new Map<string, number>(COUNTED_LIMITS.map((limit) => [limit, 0]));

  /** Counts one refusal by `limit` (an option name). */
  count(limit: string): void {
    this.#counts.set(limit, (this.#counts.get(limit) ?? 0) + 1);
  }

  /** The counts so far, every counted limit included. */
  snapshot(): ReadonlyMap<string, number> {
    return new Map(this.#counts);
  }
}

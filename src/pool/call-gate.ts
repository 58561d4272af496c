/**
 * @module pool/call-gate
 * A second gate of a user's calls after the in-process {@link CallLimiter}: the cluster's share of
 * the user's concurrent-call limit (see `ClusterCallLimiter`). A user client runs every limited
 * call through it when the pool has one.
 */

/** Who a gated call belongs to. */
export interface GatedUser {
  id: string;
  name: string;
}

/** Options of one gated call. */
export interface CallGateOptions {
  signal?: AbortSignal;
  /** How long the call may still wait for a place (what is left of the pool's queue timeout). */
  waitMs: number;
}

/** Runs a call once a place under the user's limit is the call's, everywhere the limit holds. */
export interface CallGate {
  /**
   * Runs `task` within `limit` calls of `user` at once; waiting ends with LIMIT_EXCEEDED after
   * `waitMs`, or REQUEST_CANCELLED when `signal` aborts.
   */
  run<T>(user: GatedUser, limit: number, task: () => Promise<T>, options: CallGateOptions): Promise<T>;
  /** True when `run` under `limit` would only run the task (nothing to count): the caller may skip it. */
  passes(limit: number): boolean;
}

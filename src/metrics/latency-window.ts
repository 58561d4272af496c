/**
 * @module metrics/latency-window
 * The last N latencies of something, for exact percentiles over a recent window. Recording is O(1)
 * and allocation-free; percentiles sort a copy on demand (when stats are read, not per call).
 */

import type { LatencySummary } from './stats-types.js';

export type { LatencySummary };

/** Samples kept. @default 2048 */
export const DEFAULT_WINDOW_SIZE = 2048;

/** A ring buffer of latency samples. */
export class LatencyWindow {
  readonly #samples: Float64Array;
  #next = 0;
  #filled = 0;

  constructor(size: number = DEFAULT_WINDOW_SIZE) {
    this.#samples = new Float64Array(size);
  }

  record(ms: number): void {
    this.#samples[this.#next] = ms;
    this.#next = (this.#next + 1) % this.#samples.length;
    if (this.#filled < this.#samples.length) this.#filled++;
  }

  /** Nearest-rank percentiles over the window (zeros when empty). */
  summary(): LatencySummary {
    const count = this.#filled;
    if (count === 0) return { count: 0, p50: 0, p95: 0, p99: 0, max: 0, mean: 0 };
    const sorted = this.#samples.slice(0, count).sort();
    let sum = 0;
    for (const value of sorted) sum += value;
    return { count, p50: rank(sorted, 0.5), p95: rank(sorted, 0.95), p99: rank(sorted, 0.99), max: sorted[count - 1] ?? 0, mean: sum / count };
  }
}

/** Nearest-rank percentile of sorted samples. */
export function rank(sorted: Float64Array | readonly number[], quantile: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(quantile * sorted.length) - 1));
  return sorted[index] ?? 0;
}

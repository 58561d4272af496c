/**
 * @module metrics/pending-counts
 * Counts kept in a `Map` by a key the caller already has and added to a `prom-client` counter when
 * it is scraped (from the counter's `collect`). Incrementing a prom-client counter validates the label
 * object and hashes it on every call; on a per-call path that was a visible share (issue 17). The
 * exposition is the same: every count reaches the counter before it is read, and none twice.
 */

import type { Counter } from 'prom-client';
import { innerMap } from '../util/inner-map.js';

/** Counts waiting for the next scrape, by key. */
export type PendingCounts = Map<string, PendingCount>;

const byRegistryAndName = new WeakMap<object, Map<string, PendingCounts>>();

/** The pending counts of metric `name` in `registry` (shared by every client that registers into it). */
export function pendingCountsOf(registry: object, name: string): PendingCounts {
  return innerMap(innerMap(byRegistryAndName, registry), name);
}

/** One key's pending count. */
export type PendingCount = { labels: Record<string, string>; count: number };

/**
 * The count under `key` (created at 0): a caller that keeps it counts with `entry.count++` and builds
 * no key string per event. Entries are zeroed when flushed, never removed, so a kept one stays counted.
 */
export function pendingEntry(counts: PendingCounts, key: string, labels: () => Record<string, string>): PendingCount {
  let pending = counts.get(key);
  if (pending === undefined) {
    pending = { labels: labels(), count: 0 };
    counts.set(key, pending);
  }
  return pending;
}

/** Adds the pending counts to `counter` and zeroes them (call it from the counter's `collect`). */
export function flushPending(counter: Counter<string>, counts: PendingCounts): void {
  for (const pending of counts.values()) {
    if (pending.count === 0) continue;
    counter.inc(pending.labels, pending.count);
    pending.count = 0;
  }
}

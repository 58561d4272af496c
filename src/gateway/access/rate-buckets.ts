/**
 * @module gateway/access/rate-buckets
 * Token buckets for calls-per-minute limits in this process's memory. The contract is
 * {@link RateBucketStore} (registry/rate-bucket-store): the registry's SQL store implements it for a
 * cluster (PostgreSQL: every replica draws from the same buckets); a Redis script could too. Time
 * comes from an injected clock, so tests move it instead of sleeping.
 */

import { refill, retryAfterMs, type BucketAnswer, type BucketRequest, type RateBucketStore } from '../../registry/index.js';

export type { BucketAnswer, BucketRequest, RateBucketStore };

interface Bucket {
  tokens: number;
  atMs: number;
}

/** Most buckets kept; the oldest full ones go first (a full bucket is the same as no bucket). */
const MAX_BUCKETS = 100_000;

/** Buckets in this process's memory. */
export class MemoryBucketStore implements RateBucketStore {
  readonly #buckets = new Map<string, Bucket>();

  take(requests: readonly BucketRequest[], nowMs: number): Promise<BucketAnswer> {
    const filled = requests.map((request) => ({ request, bucket: this.#refilled(request, nowMs) }));
    for (const { request, bucket } of filled) {
      if (bucket.tokens < 1) {
        return Promise.resolve({ ok: false, key: request.key, retryAfterMs: retryAfterMs(bucket.tokens, request.perMinute) });
      }
    }
    for (const { request, bucket } of filled) this.#buckets.set(request.key, { tokens: bucket.tokens - 1, atMs: nowMs });
    if (this.#buckets.size > MAX_BUCKETS) this.#prune(nowMs, requests);
    return Promise.resolve({ ok: true });
  }

  /** Buckets held now (for tests and metrics). */
  get size(): number {
    return this.#buckets.size;
  }

  #refilled(request: BucketRequest, nowMs: number): Bucket {
    const bucket = this.#buckets.get(request.key);
    if (bucket === undefined) return { tokens: request.perMinute, atMs: nowMs };
    return { tokens: refill(bucket.tokens, bucket.atMs, request.perMinute, nowMs), atMs: nowMs };
  }

  #prune(nowMs: number, keep: readonly BucketRequest[]): void {
    const kept = new Set(keep.map((request) => request.key));
    // A bucket untouched for a minute is full again at any rate: dropping it changes nothing.
    for (const [key, bucket] of this.#buckets) if (!kept.has(key) && nowMs - bucket.atMs >= 60_000) this.#buckets.delete(key);
  }
}

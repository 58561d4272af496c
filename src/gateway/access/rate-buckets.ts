/**
 * @module gateway/access/rate-buckets
 * Token buckets for calls-per-minute limits, behind {@link RateBucketStore} so the store can be
 * swapped: {@link MemoryBucketStore} counts in this process (one gateway, or per replica); a
 * cluster-wide store (a PostgreSQL row per bucket updated in one statement, or a Redis script) can
 * implement the same interface later so limits hold across replicas. Time comes from an injected
 * clock, so tests move it instead of sleeping.
 */

/** One bucket a call needs a token from. */
export interface BucketRequest {
  /** Identifies the bucket (limit id, caller, tool). */
  key: string;
  /** Tokens the bucket holds when full, and gains per minute. */
  perMinute: number;
}

/** The answer of {@link RateBucketStore.take}: every bucket gave a token, or the first empty one and when it has one again. */
export type BucketAnswer = { ok: true } | { ok: false; key: string; retryAfterMs: number };

/** Where buckets live. `take` takes one token from each bucket, or none at all when one is empty. */
export interface RateBucketStore {
  take(requests: readonly BucketRequest[], nowMs: number): Promise<BucketAnswer>;
}

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
        const perMs = request.perMinute / 60_000;
        return Promise.resolve({ ok: false, key: request.key, retryAfterMs: Math.ceil((1 - bucket.tokens) / perMs) });
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
    const elapsed = Math.max(0, nowMs - bucket.atMs);
    return { tokens: Math.min(request.perMinute, bucket.tokens + (elapsed * request.perMinute) / 60_000), atMs: nowMs };
  }

  #prune(nowMs: number, keep: readonly BucketRequest[]): void {
    const kept = new Set(keep.map((request) => request.key));
    // A bucket untouched for a minute is full again at any rate: dropping it changes nothing.
    for (const [key, bucket] of this.#buckets) if (!kept.has(key) && nowMs - bucket.atMs >= 60_000) this.#buckets.delete(key);
  }
}

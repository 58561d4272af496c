/**
 * @module registry/rate-bucket-store
 * Token buckets of rate limits in the registry database, so every replica of a cluster draws from
 * the same buckets (PostgreSQL: the bucket rows are locked for the take, in one transaction; SQLite:
 * its transactions are serialized anyway). The contract is {@link RateBucketStore}; the gateway's
 * in-memory store implements the same one for a single process.
 */

import { sql } from 'kysely';
import type { RegistryContext } from './registry-context.js';

/** One bucket a call needs a token from. */
export interface BucketRequest {
  /** Identifies the bucket (limit id, caller, tool). */
  key: string;
  /** Tokens the bucket holds when full, and gains per minute. */
  perMinute: number;
}

/** Every bucket gave a token, or the first empty one and when it has one again. */
export type BucketAnswer = { ok: true } | { ok: false; key: string; retryAfterMs: number };

/** Where buckets live. `take` takes one token from each bucket, or none at all when one is empty. */
export interface RateBucketStore {
  take(requests: readonly BucketRequest[], nowMs: number): Promise<BucketAnswer>;
}

/** A bucket after refilling for the time since it was last touched. */
export function refill(tokens: number, atMs: number, perMinute: number, nowMs: number): number {
  return Math.min(perMinute, tokens + (Math.max(0, nowMs - atMs) * perMinute) / 60_000);
}

/** How long until an empty bucket holds one token. */
export function retryAfterMs(tokens: number, perMinute: number): number {
  return Math.ceil((1 - tokens) / (perMinute / 60_000));
}

/** Takes between sweeps of buckets untouched for long (they are full: dropping them changes nothing). */
const SWEEP_EVERY = 1_000;

/** Buckets in the registry database. */
export class SqlBucketStore implements RateBucketStore {
  readonly #context: RegistryContext;
  #takes = 0;

  constructor(context: RegistryContext) {
    this.#context = context;
  }

  async take(requests: readonly BucketRequest[], nowMs: number): Promise<BucketAnswer> {
    if (requests.length === 0) return { ok: true };
    const keys = [...new Set(requests.map((request) => request.key))];
    const answer = await this.#context.db.transaction().execute(async (trx) => {
      // Rows exist before they are locked, so two replicas taking a new bucket's first token queue up.
      await trx
        .insertInto('rate_buckets')
        .values(requests.map((request) => ({ key: request.key, tokens: request.perMinute, at_ms: nowMs })))
        .onConflict((conflict) => conflict.column('key').doNothing())
        .execute();
      const select = trx.selectFrom('rate_buckets').selectAll().where('key', 'in', keys);
      const rows = await (this.#context.backend === 'postgres' ? select.forUpdate() : select).execute();
      const stored = new Map(rows.map((row) => [row.key, row]));
      const filled = requests.map((request) => {
        const row = stored.get(request.key);
        // A bucket's time never goes back: replicas whose clocks differ would otherwise each refill the
        // difference again on every take that alternates between them (round-robin does), without limit.
        const atMs = row === undefined ? nowMs : Math.max(nowMs, Number(row.at_ms));
        return { request, atMs, tokens: row === undefined ? request.perMinute : refill(Number(row.tokens), Number(row.at_ms), request.perMinute, nowMs) };
      });
      for (const { request, tokens } of filled) if (tokens < 1) return { ok: false as const, key: request.key, retryAfterMs: retryAfterMs(tokens, request.perMinute) };
      for (const { request, tokens, atMs } of filled) await trx.updateTable('rate_buckets').set({ tokens: tokens - 1, at_ms: atMs }).where('key', '=', request.key).execute();
      return { ok: true as const };
    });
    if (++this.#takes % SWEEP_EVERY === 0) {
      await this.#context.db.deleteFrom('rate_buckets').where(sql<boolean>`at_ms < ${nowMs - 600_000}`).execute().catch((error: unknown) => this.#context.logger.debug('sweeping rate buckets failed', { error: String(error) }));
    }
    return answer;
  }
}

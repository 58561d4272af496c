/**
 * @module client/routing/read-cache
 * A bounded store of `resources/read` results kept as long as their server's cache hint says
 * (2026-07-28 `ttlMs`, capped), in groups (a server, or a server's identity in a cache shared by
 * users) that are invalidated whole; a read in flight across an invalidation stores nothing.
 */

import type { ReadResourceResult } from '../../connection/mcp-types.js';

/** A server's cache hint on a result. */
export interface CacheHint {
  ttlMs: number;
  /** `public`: may be served across authorization contexts (users); `private`: only within one. */
  scope: 'public' | 'private';
}

/** Longest a hinted result is kept, whatever the server says. @default 1 hour */
export const MAX_HINT_TTL_MS = 3_600_000;
/** Entries kept per store (oldest dropped first). */
export const DEFAULT_READ_CACHE_ENTRIES = 1_000;
/** Largest result kept (JSON characters). */
export const MAX_CACHED_READ_CHARS = 1_048_576;

/**
 * The hint of a result, or undefined when it may not be reused: no `ttlMs` (a 2025-era server), `0`
 * (immediately stale) or an invalid one. A scope other than `public` is taken as `private`: guessing
 * `public` is the one mistake that leaks one user's data to another.
 */
export function cacheHintOf(result: Record<string, unknown>): CacheHint | undefined {
  const { ttlMs, cacheScope } = result;
  if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs) || ttlMs <= 0) return undefined;
  return { ttlMs: Math.min(Math.floor(ttlMs), MAX_HINT_TTL_MS), scope: cacheScope === 'public' ? 'public' : 'private' };
}

interface Entry {
  result: ReadResourceResult;
  expiresAt: number;
}

/** A store of read results, grouped for invalidation. */
export class ReadCache {
  readonly #entries = new Map<string, Entry>();
  readonly #generations = new Map<string, number>();
  readonly #now: () => number;
  readonly #maxEntries: number;

  constructor(options: { now?: () => number; maxEntries?: number } = {}) {
    this.#now = options.now ?? Date.now;
    this.#maxEntries = options.maxEntries ?? DEFAULT_READ_CACHE_ENTRIES;
  }

  /** Entries held. */
  get size(): number {
    return this.#entries.size;
  }

  /** The group's generation: take it before a read, pass it to {@link set}. */
  generation(group: string): number {
    return this.#generations.get(group) ?? 0;
  }

  /** A fresh result of `uri` in `group` (frozen), or undefined. */
  get(group: string, uri: string): ReadResourceResult | undefined {
    const key = keyOf(group, uri);
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.result;
  }

  /** Keeps a result for `ttlMs` unless the group was invalidated since `generation`. */
  set(group: string, uri: string, result: ReadResourceResult, ttlMs: number, generation: number): boolean {
    if (this.generation(group) !== generation || JSON.stringify(result).length > MAX_CACHED_READ_CHARS) return false;
    const key = keyOf(group, uri);
    this.#entries.delete(key);
    this.#entries.set(key, { result: deepFreeze(result), expiresAt: this.#now() + ttlMs });
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
    return true;
  }

  /** Drops a group's entries (one URI's only when given) and makes its reads in flight stale. */
  invalidate(group: string, uri?: string): void {
    this.#generations.set(group, this.generation(group) + 1);
    if (uri !== undefined) {
      this.#entries.delete(keyOf(group, uri));
      return;
    }
    const prefix = `${group}\0`;
    for (const key of this.#entries.keys()) if (key.startsWith(prefix)) this.#entries.delete(key);
  }

  /** Drops everything. */
  clear(): void {
    for (const key of this.#entries.keys()) this.invalidate(key.slice(0, key.indexOf('\0')));
  }
}

function keyOf(group: string, uri: string): string {
  return `${group}\0${uri}`;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

/**
 * @module client/call/result-cache
 * Opt-in caching of tool results, keyed by server, tool and canonical arguments. Memory is bounded
 * per server (entries, LRU) and overall (bytes). A server's entries are invalidated when any tool of
 * it that may write is called, on `list_changed`, and on reconnect; a call that was in flight across
 * an invalidation does not store its (possibly stale) result.
 */

import type { ToolResult } from '../../result/tool-result.js';
import { canonicalJson } from '../../util/canonical-json.js';

/** Default bound on the bytes held by one cache. @default 64 MiB */
export const DEFAULT_CACHE_MAX_BYTES = 64 * 1024 * 1024;

interface Entry {
  result: ToolResult;
  expiresAt: number;
  bytes: number;
}

interface ServerCache {
  entries: Map<string, Entry>;
  generation: number;
}

/** Options of {@link ResultCache}. */
export interface ResultCacheOptions {
  /** @default Date.now */
  now?: () => number;
  /** @default DEFAULT_CACHE_MAX_BYTES */
  maxBytes?: number;
  /** Told of every invalidation of a server (other caches of it follow: hinted resource reads). */
  onInvalidate?: (server: string) => void;
}

/** A bounded, per-server result cache. */
export class ResultCache {
  readonly #servers = new Map<string, ServerCache>();
  readonly #now: () => number;
  readonly #maxBytes: number;
  readonly #onInvalidate: ((server: string) => void) | undefined;
  #bytes = 0;

  constructor(options: ResultCacheOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#maxBytes = options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES;
    this.#onInvalidate = options.onInvalidate;
  }

  /** The key of a call. */
  static key(tool: string, args: Record<string, unknown>): string {
    return `${tool}\0${canonicalJson(args)}`;
  }

  /** Bytes held (approximate: the JSON size of the results). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Entries held for a server. */
  size(server: string): number {
    return this.#servers.get(server)?.entries.size ?? 0;
  }

  /** The server's generation: take it before a call, pass it to {@link set}. */
  generation(server: string): number {
    return this.#server(server).generation;
  }

  /** A fresh cached result (frozen; do not mutate), or undefined. */
  get(server: string, key: string): ToolResult | undefined {
    const cache = this.#servers.get(server);
    const entry = cache?.entries.get(key);
    if (cache === undefined || entry === undefined) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#delete(cache, key, entry);
      return undefined;
    }
    // Re-insert to mark it most recently used.
    cache.entries.delete(key);
    cache.entries.set(key, entry);
    return entry.result;
  }

  /** Stores a result unless the server was invalidated since `generation` was taken. */
  set(server: string, key: string, result: ToolResult, policy: { ttlMs: number; maxEntries: number }, generation: number): boolean {
    const cache = this.#server(server);
    if (cache.generation !== generation || result.isError) return false;
    const bytes = JSON.stringify(result).length;
    if (bytes > this.#maxBytes / 4) return false;
    const existing = cache.entries.get(key);
    if (existing !== undefined) this.#delete(cache, key, existing);
    cache.entries.set(key, { result: deepFreeze(result), expiresAt: this.#now() + policy.ttlMs, bytes });
    this.#bytes += bytes;
    while (cache.entries.size > policy.maxEntries) this.#evictOldest(cache);
    while (this.#bytes > this.#maxBytes) this.#evictGlobally();
    return true;
  }

  /** Drops a server's entries and makes in-flight fills stale. */
  invalidate(server: string): void {
    const cache = this.#server(server);
    cache.generation++;
    for (const [key, entry] of cache.entries) this.#delete(cache, key, entry);
    this.#onInvalidate?.(server);
  }

  /** Drops everything. */
  clear(): void {
    for (const server of this.#servers.keys()) this.invalidate(server);
  }

  #server(server: string): ServerCache {
    let cache = this.#servers.get(server);
    if (cache === undefined) {
      cache = { entries: new Map(), generation: 0 };
      this.#servers.set(server, cache);
    }
    return cache;
  }

  #delete(cache: ServerCache, key: string, entry: Entry): void {
    cache.entries.delete(key);
    this.#bytes -= entry.bytes;
  }

  #evictOldest(cache: ServerCache): void {
    const first = cache.entries.entries().next();
    if (first.done !== true) this.#delete(cache, first.value[0], first.value[1]);
  }

  #evictGlobally(): void {
    // The largest server pays first: one busy server cannot push out everyone else's entries.
    let largest: ServerCache | undefined;
    for (const cache of this.#servers.values()) if (largest === undefined || cache.entries.size > largest.entries.size) largest = cache;
    if (largest === undefined || largest.entries.size === 0) {
      this.#bytes = 0;
      return;
    }
    this.#evictOldest(largest);
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

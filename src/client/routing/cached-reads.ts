/**
 * @module client/routing/cached-reads
 * `resources/read` with the server's cache hints honoured (2026-07-28 `ttlMs`/`cacheScope`): a
 * hinted result is served again until its TTL runs out or the server says the resource changed
 * (`resources/updated`, `list_changed`, a reconnect). A `private` result is kept in this client's own
 * store only — one client is one authorization context. A `public` one goes to the store shared by
 * the clients of many users when there is one (the gateway's), under the identity of the server's
 * whole entry: two users share an entry only when their servers are configured exactly alike.
 */

import { createHash } from 'node:crypto';
import type { ServerSpec } from '../../config/server-spec.js';
import type { ReadResourceResult } from '../../connection/mcp-types.js';
import { canonicalJson } from '../../util/canonical-json.js';
import { ReadCache, cacheHintOf } from './read-cache.js';

/** Options of {@link CachedReads}. */
export interface CachedReadsOptions {
  /** The store shared with other users' clients, for `public` results. */
  shared?: ReadCache;
  now?: () => number;
}

/** One client's hinted reads. */
export class CachedReads {
  readonly #own: ReadCache;
  readonly #shared: ReadCache | undefined;
  readonly #identities = new WeakMap<ServerSpec, string>();
  /** The spec each server was last read under (to find its shared group on invalidation). */
  readonly #specs = new Map<string, ServerSpec>();

  constructor(options: CachedReadsOptions = {}) {
    this.#own = new ReadCache(options.now === undefined ? {} : { now: options.now });
    this.#shared = options.shared;
  }

  /** The result of `uri` from a store when fresh, else from `read` (kept as its hint allows). */
  async read(spec: ServerSpec, uri: string, read: () => Promise<ReadResourceResult>): Promise<ReadResourceResult> {
    this.#specs.set(spec.name, spec);
    const own = this.#own.get(spec.name, uri);
    if (own !== undefined) return own;
    const identity = this.#shared === undefined ? undefined : this.#identity(spec);
    const shared = identity === undefined ? undefined : this.#shared?.get(identity, uri);
    if (shared !== undefined) return shared;
    const ownGeneration = this.#own.generation(spec.name);
    const sharedGeneration = identity === undefined ? 0 : (this.#shared?.generation(identity) ?? 0);
    const result = await read();
    const hint = cacheHintOf(result);
    if (hint === undefined) return result;
    if (hint.scope === 'public' && identity !== undefined && this.#shared !== undefined) this.#shared.set(identity, uri, result, hint.ttlMs, sharedGeneration);
    else this.#own.set(spec.name, uri, result, hint.ttlMs, ownGeneration);
    return result;
  }

  /** Drops what is kept of a server (one URI's only when given), here and in the shared store. */
  invalidate(server: string, uri?: string): void {
    this.#own.invalidate(server, uri);
    const spec = this.#specs.get(server);
    if (spec !== undefined && this.#shared !== undefined) this.#shared.invalidate(this.#identity(spec), uri);
  }

  #identity(spec: ServerSpec): string {
    let identity = this.#identities.get(spec);
    if (identity === undefined) {
      // A digest, not the entry: the entry holds secrets (env, headers).
      identity = createHash('sha256').update(canonicalJson(spec)).digest('hex');
      this.#identities.set(spec, identity);
    }
    return identity;
  }
}

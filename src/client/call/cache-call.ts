/**
 * @module client/call/cache-call
 * The cache layer of a tool call, for servers with a `cache:` policy: a cached tool's result is
 * looked up before sending and stored after (unless a write in between made it stale); a tool that
 * may write makes the server's cached results stale, before and after it runs. A server without a
 * policy gets {@link NO_CALL_CACHE}: nothing is allocated or looked up.
 */

import type { CachePolicy, ServerSpec } from '../../config/server-spec.js';
import type { StatsCollector } from '../../metrics/stats-collector.js';
import type { ToolResult } from '../../result/tool-result.js';
import type { CatalogTool } from '../catalog/catalog-items.js';
import { ResultCache } from './result-cache.js';

/** The cache's part in one call. */
export interface CallCacheStep {
  /** The cached result: answer with it and send nothing. */
  readonly hit: ToolResult | undefined;
  /** The call returned `result`. */
  stored(result: ToolResult): void;
  /** The call failed. */
  failed(): void;
}

/** What the cache layer needs of the server. */
export interface CachingServer {
  readonly spec: Pick<ServerSpec, 'cache'>;
  /** Tools named by the policy's `tools` globs. */
  readonly cacheMatcher: ((name: string) => boolean) | undefined;
}

/** The step of a server without a cache policy. */
export const NO_CALL_CACHE: CallCacheStep = { hit: undefined, stored: () => {}, failed: () => {} };

/** The cache step of calling `tool` with `args`; looks the result up at once. */
export function cacheCall(cache: ResultCache, stats: StatsCollector, server: CachingServer, tool: CatalogTool, args: Record<string, unknown>): CallCacheStep {
  const policy = server.spec.cache;
  return policy === undefined ? NO_CALL_CACHE : new CachedCall(cache, stats, policy, server.cacheMatcher, tool, args);
}

/** The cache policy that applies to `tool`, if any. */
export function cachePolicyOf(policy: CachePolicy, matcher: ((name: string) => boolean) | undefined, tool: CatalogTool): CachePolicy | undefined {
  if (policy.tools === undefined) return policy;
  if (matcher?.(tool.originalName) === true) return policy;
  if (policy.readOnly && tool.annotations?.readOnlyHint === true) return policy;
  return undefined;
}

class CachedCall implements CallCacheStep {
  readonly hit: ToolResult | undefined;
  readonly #cache: ResultCache;
  readonly #server: string;
  readonly #policy: CachePolicy | undefined;
  readonly #key: string | undefined;
  /** True for a tool that may write (and is not cached): it makes the server's results stale. */
  readonly #writes: boolean;
  readonly #generation: number;

  constructor(cache: ResultCache, stats: StatsCollector, serverPolicy: CachePolicy, matcher: ((name: string) => boolean) | undefined, tool: CatalogTool, args: Record<string, unknown>) {
    this.#cache = cache;
    this.#server = tool.server;
    const policy = cachePolicyOf(serverPolicy, matcher, tool);
    this.#policy = policy;
    this.#key = policy === undefined ? undefined : ResultCache.key(tool.originalName, args);
    let hit: ToolResult | undefined;
    if (this.#key !== undefined) {
      hit = cache.get(tool.server, this.#key);
      stats.cacheLookup(tool.server, tool.originalName, hit !== undefined);
    }
    this.hit = hit;
    this.#writes = policy === undefined && tool.annotations?.readOnlyHint !== true;
    if (hit === undefined && this.#writes) cache.invalidate(tool.server);
    this.#generation = cache.generation(tool.server);
  }

  stored(result: ToolResult): void {
    if (this.#writes) this.#cache.invalidate(this.#server);
    if (this.#policy !== undefined && this.#key !== undefined) this.#cache.set(this.#server, this.#key, result, this.#policy, this.#generation);
  }

  failed(): void {
    if (this.#writes) this.#cache.invalidate(this.#server);
  }
}

import { describe, expect, test } from 'vitest';
import type { CachePolicy } from '../../config/server-spec.js';
import { StatsCollector } from '../../metrics/stats-collector.js';
import type { ToolResult } from '../../result/tool-result.js';
import type { CatalogTool } from '../catalog/catalog-items.js';
import { globMatcher } from '../catalog/glob.js';
import { NO_CALL_CACHE, cacheCall } from './cache-call.js';
import { ResultCache } from './result-cache.js';

const result = (text: string): ToolResult => ({ isError: false, content: [{ type: 'text', text }] });
const tool = (originalName: string, readOnly?: boolean): CatalogTool => ({ name: originalName, server: 's', originalName, inputSchema: { type: 'object' }, ...(readOnly === undefined ? {} : { annotations: { readOnlyHint: readOnly } }) });
const policy = (extra: Partial<CachePolicy> = {}): CachePolicy => ({ ttlMs: 60_000, maxEntries: 10, readOnly: false, ...extra });
const server = (cache: CachePolicy | undefined) => ({ spec: cache === undefined ? {} : { cache }, cacheMatcher: cache?.tools === undefined ? undefined : globMatcher(cache.tools) });

describe('cacheCall', () => {
  test('a server without a cache policy gets the shared no-op step', () => {
    expect(cacheCall(new ResultCache(), new StatsCollector(), server(undefined), tool('read'), {})).toBe(NO_CALL_CACHE);
  });

  test('a miss, then the stored result is the next call’s hit (same arguments in any order), counted', () => {
    const cache = new ResultCache();
    const stats = new StatsCollector();
    const first = cacheCall(cache, stats, server(policy()), tool('search'), { q: 'x', limit: 2 });
    expect(first.hit).toBeUndefined();
    first.stored(result('found'));
    expect(cacheCall(cache, stats, server(policy()), tool('search'), { limit: 2, q: 'x' }).hit).toEqual(result('found'));
    expect(cacheCall(cache, stats, server(policy()), tool('search'), { q: 'y', limit: 2 }).hit).toBeUndefined();
    expect(stats.snapshot(new Map([['s', 'ready']])).servers[0]).toMatchObject({ cacheHits: 1, cacheMisses: 2 });
  });

  test('with `tools` globs, only the named tools (and read-only ones under readOnly) are cached', () => {
    const cache = new ResultCache();
    const stats = new StatsCollector();
    const named = policy({ tools: ['get_*'], readOnly: true });
    cacheCall(cache, stats, server(named), tool('other', false), {}).stored(result('o'));
    cacheCall(cache, stats, server(named), tool('get_user'), {}).stored(result('u'));
    cacheCall(cache, stats, server(named), tool('list', true), {}).stored(result('l'));
    expect(cacheCall(cache, stats, server(named), tool('get_user'), {}).hit).toEqual(result('u'));
    expect(cacheCall(cache, stats, server(named), tool('list', true), {}).hit).toEqual(result('l'));
    // `other` may write: not cached, and calling it makes the server's results stale.
    expect(cacheCall(cache, stats, server(named), tool('other', false), {}).hit).toBeUndefined();
    expect(cacheCall(cache, stats, server(named), tool('get_user'), {}).hit).toBeUndefined();
  });

  test('a tool that may write makes the server’s cached results stale, before and after it runs (also when it fails)', () => {
    const cache = new ResultCache();
    const stats = new StatsCollector();
    const only = policy({ tools: ['read'] });
    cacheCall(cache, stats, server(only), tool('read'), {}).stored(result('r1'));
    const write = cacheCall(cache, stats, server(only), tool('write'), {});
    expect(cacheCall(cache, stats, server(only), tool('read'), {}).hit).toBeUndefined();
    // A read that started before the write ended is not stored: the write may have changed it.
    const read = cacheCall(cache, stats, server(only), tool('read'), {});
    write.failed();
    read.stored(result('r2'));
    expect(cacheCall(cache, stats, server(only), tool('read'), {}).hit).toBeUndefined();
  });
});

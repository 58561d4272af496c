import { expect, test } from 'vitest';
import type { ToolResult } from '../../result/tool-result.js';
import { ResultCache } from './result-cache.js';

const result = (text: string): ToolResult => ({ isError: false, content: [{ type: 'text', text }] });
const policy = { ttlMs: 1_000, maxEntries: 3 };

test('hit, key canonical in argument order, TTL expiry', () => {
  let now = 0;
  const cache = new ResultCache({ now: () => now });
  const key = ResultCache.key('search', { q: 'x', limit: 2 });
  expect(ResultCache.key('search', { limit: 2, q: 'x' })).toBe(key);
  expect(cache.set('s', key, result('a'), policy, cache.generation('s'))).toBe(true);
  expect(cache.get('s', key)).toEqual(result('a'));
  now = 999;
  expect(cache.get('s', key)).toBeDefined();
  now = 1_000;
  expect(cache.get('s', key)).toBeUndefined();
  expect(cache.bytes).toBe(0);
});

test('invalidation drops entries and refuses fills started before it', () => {
  const cache = new ResultCache();
  const before = cache.generation('s');
  cache.set('s', 'k1', result('1'), policy, before);
  cache.invalidate('s');
  expect(cache.get('s', 'k1')).toBeUndefined();
  expect(cache.set('s', 'k2', result('2'), policy, before)).toBe(false);
  expect(cache.set('s', 'k2', result('2'), policy, cache.generation('s'))).toBe(true);
  // Other servers are untouched.
  cache.set('t', 'k', result('t'), policy, cache.generation('t'));
  cache.invalidate('s');
  expect(cache.get('t', 'k')).toBeDefined();
});

test('bounded: LRU per server, bytes overall; errors are not cached; results are frozen', () => {
  const cache = new ResultCache({ maxBytes: 4_000 });
  for (const key of ['a', 'b', 'c']) cache.set('s', key, result(key), policy, 0);
  cache.get('s', 'a');
  cache.set('s', 'd', result('d'), policy, 0);
  expect(cache.get('s', 'b')).toBeUndefined();
  expect(cache.size('s')).toBe(3);
  for (let index = 0; index < 200; index++) cache.set(`server${index % 5}`, `k${index}`, result('x'.repeat(50)), { ttlMs: 1_000, maxEntries: 1_000 }, 0);
  expect(cache.bytes).toBeLessThanOrEqual(4_000);
  expect(cache.set('s', 'e', { isError: true, content: [] }, policy, 0)).toBe(false);
  const frozen = cache.get('s', 'a');
  expect(Object.isFrozen(frozen?.content[0])).toBe(true);
});

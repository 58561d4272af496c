import { expect, test } from 'vitest';
import { MAX_HINT_TTL_MS, ReadCache, cacheHintOf } from './read-cache.js';

const RESULT = { contents: [{ uri: 'a://b', text: 'x' }] };

test('hints: only a positive ttlMs may be reused; anything but public is private; ttl capped', () => {
  expect(cacheHintOf({ ttlMs: 5_000, cacheScope: 'public' })).toEqual({ ttlMs: 5_000, scope: 'public' });
  expect(cacheHintOf({ ttlMs: 5_000 })).toEqual({ ttlMs: 5_000, scope: 'private' });
  expect(cacheHintOf({ ttlMs: 5_000, cacheScope: 'shared' })).toEqual({ ttlMs: 5_000, scope: 'private' });
  expect(cacheHintOf({ ttlMs: Number.MAX_SAFE_INTEGER, cacheScope: 'public' })?.ttlMs).toBe(MAX_HINT_TTL_MS);
  for (const ttlMs of [0, -1, Number.NaN, '60000', undefined]) expect(cacheHintOf({ ttlMs })).toBeUndefined();
});

test('entries expire with their ttl', () => {
  let now = 1_000;
  const cache = new ReadCache({ now: () => now });
  expect(cache.set('s', 'a://b', structuredClone(RESULT), 100, cache.generation('s'))).toBe(true);
  now += 99;
  expect(cache.get('s', 'a://b')).toEqual(RESULT);
  now += 1;
  expect(cache.get('s', 'a://b')).toBeUndefined();
});

test('an invalidation drops the group and makes a read in flight stale', () => {
  const cache = new ReadCache();
  const before = cache.generation('s');
  cache.set('s', 'a://b', structuredClone(RESULT), 1_000, before);
  cache.set('t', 'a://b', structuredClone(RESULT), 1_000, cache.generation('t'));
  cache.invalidate('s');
  expect(cache.get('s', 'a://b')).toBeUndefined();
  expect(cache.get('t', 'a://b')).toEqual(RESULT);
  expect(cache.set('s', 'a://b', structuredClone(RESULT), 1_000, before)).toBe(false);
});

test('holds a bounded number of entries, oldest dropped first', () => {
  const cache = new ReadCache({ maxEntries: 2 });
  for (const uri of ['a://1', 'a://2', 'a://3']) cache.set('s', uri, structuredClone(RESULT), 1_000, 0);
  expect(cache.size).toBe(2);
  expect(cache.get('s', 'a://1')).toBeUndefined();
});

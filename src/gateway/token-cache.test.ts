import { expect, test } from 'vitest';
import type { RegistryUser } from '../registry/index.js';
import { TokenCache } from './token-cache.js';

const alice: RegistryUser = { id: 'u1', name: 'alice', isAdmin: false, createdAt: '', updatedAt: '' };

test('a verified token is remembered until its TTL, and forgotten on clear', () => {
  const cache = new TokenCache(1_000);
  cache.set('sb_token_a', alice, 0);
  expect(cache.get('sb_token_a', 999)).toBe(alice);
  expect(cache.get('sb_token_b', 999)).toBeUndefined();
  expect(cache.get('sb_token_a', 1_000)).toBeUndefined();
  cache.set('sb_token_a', alice, 2_000);
  cache.clear();
  expect(cache.get('sb_token_a', 2_001)).toBeUndefined();
});

test('a TTL of 0 remembers nothing', () => {
  const cache = new TokenCache(0);
  cache.set('sb_token_a', alice, 0);
  expect(cache.get('sb_token_a', 0)).toBeUndefined();
});

test('an entry never outlives the token\'s own expiry', () => {
  const cache = new TokenCache(5_000);
  cache.set('sb_token_a', alice, 0, 1_000);
  expect(cache.get('sb_token_a', 999)).toBe(alice);
  expect(cache.get('sb_token_a', 1_000)).toBeUndefined();
  cache.set('sb_token_b', alice, 2_000, 2_000);
  expect(cache.get('sb_token_b', 2_000)).toBeUndefined();
  cache.set('sb_token_c', alice, 0, 60_000);
  expect(cache.get('sb_token_c', 4_999)).toBe(alice);
  expect(cache.get('sb_token_c', 5_000)).toBeUndefined();
});

test('an OAuth token is remembered with its scopes; a static token has none', () => {
  const cache = new TokenCache(5_000);
  cache.set('oauth_token', alice, 0, undefined, ['mcp:read']);
  cache.set('sb_token_a', alice, 0);
  expect(cache.lookup('oauth_token', 1)).toEqual({ user: alice, until: 5_000, scopes: ['mcp:read'] });
  expect(cache.lookup('sb_token_a', 1)?.scopes).toBeUndefined();
});

test('a connection\'s memo answers only for the token it last presented, within its TTL, and never after a clear', () => {
  const bob: RegistryUser = { ...alice, id: 'u2', name: 'bob' };
  const cache = new TokenCache(1_000);
  const connection = {};
  const other = {};
  cache.set('sb_token_a', alice, 0);
  cache.set('sb_token_b', bob, 0);
  expect(cache.lookupOn(connection, 'sb_token_a', 1)?.user).toBe(alice);
  // Another token on the same connection is looked up, not taken from the memo.
  expect(cache.lookupOn(connection, 'sb_token_b', 2)?.user).toBe(bob);
  expect(cache.lookupOn(connection, 'sb_token_a', 3)?.user).toBe(alice);
  expect(cache.lookupOn(connection, 'sb_unknown', 4)).toBeUndefined();
  expect(cache.lookupOn(other, 'sb_token_a', 5)?.user).toBe(alice);
  // The memo expires with the entry.
  expect(cache.lookupOn(connection, 'sb_token_a', 1_000)).toBeUndefined();
  // A clear (a user changed, a token revoked) voids the memo of every connection at once.
  cache.set('sb_token_a', alice, 2_000);
  expect(cache.lookupOn(connection, 'sb_token_a', 2_001)?.user).toBe(alice);
  cache.clear();
  expect(cache.lookupOn(connection, 'sb_token_a', 2_002)).toBeUndefined();
  expect(cache.lookupOn(other, 'sb_token_a', 2_002)).toBeUndefined();
});

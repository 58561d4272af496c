import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { SESSION_MAX_AGE_MS, SessionSeal, sessionDigest, type SessionState } from './session-seal.js';

const state: SessionState = { userId: 'u-1', endpoint: '', protocolVersion: '2025-11-25', clientCapabilities: { roots: {} }, clientInfo: { name: 'c', version: '1' }, issuedAt: 1_000_000 };

describe('SessionSeal', () => {
  test('an id opens to the state it was sealed with, under the same key only', () => {
    const key = randomBytes(32);
    const id = new SessionSeal(key).seal(state);
    expect(id).toMatch(/^s1\.[A-Za-z0-9_-]+$/);
    expect(new SessionSeal(Buffer.from(key)).open(id, state.issuedAt + 1)).toEqual(state);
    expect(new SessionSeal(randomBytes(32)).open(id, state.issuedAt + 1)).toBeUndefined();
    // Every id is new, even for the same state.
    expect(new SessionSeal(key).seal(state)).not.toBe(id);
  });

  test('any altered byte, a foreign format or an expired id does not open', () => {
    const seal = new SessionSeal(randomBytes(32));
    const id = seal.seal(state);
    const raw = Buffer.from(id.slice(3), 'base64url');
    for (let at = 0; at < raw.length; at += 7) {
      const altered = Buffer.from(raw);
      altered[at] = (altered[at] ?? 0) ^ 1;
      expect(seal.open(`s1.${altered.toString('base64url')}`, state.issuedAt + 1)).toBeUndefined();
    }
    expect(seal.open('0b6f3d1e-9c4c-4bcb-9f5e-000000000000')).toBeUndefined();
    expect(seal.open(`s1.${'A'.repeat(9_000)}`)).toBeUndefined();
    expect(seal.open(id, state.issuedAt + SESSION_MAX_AGE_MS - 1)).toEqual(state);
    expect(seal.open(id, state.issuedAt + SESSION_MAX_AGE_MS)).toBeUndefined();
  });

  test('the digest names an id without revealing it', () => {
    expect(sessionDigest('s1.abc')).toMatch(/^[0-9a-f]{64}$/);
    expect(sessionDigest('s1.abc')).not.toBe(sessionDigest('s1.abd'));
  });
});

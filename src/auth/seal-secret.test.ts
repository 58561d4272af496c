import { randomBytes } from 'node:crypto';
import { expect, test } from 'vitest';
import { openSecret, sealSecret } from './seal-secret.js';

const key = randomBytes(32);

test('a sealed value opens with the same key and binding, and does not contain the plaintext', () => {
  const sealed = sealSecret(key, 'access-token-value', 'record-a');
  expect(sealed.startsWith('v1.')).toBe(true);
  expect(sealed).not.toContain('access-token-value');
  expect(openSecret(key, sealed, 'record-a')).toBe('access-token-value');
  // A fresh IV each time.
  expect(sealSecret(key, 'access-token-value', 'record-a')).not.toBe(sealed);
});

test('another key, another binding or a flipped byte fails with a typed error', () => {
  const sealed = sealSecret(key, 'value', 'record-a');
  expect(() => openSecret(randomBytes(32), sealed, 'record-a')).toThrow(/cannot be decrypted/);
  expect(() => openSecret(key, sealed, 'record-b')).toThrow(/cannot be decrypted/);
  const bytes = Buffer.from(sealed.slice(3), 'base64url');
  bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
  expect(() => openSecret(key, `v1.${bytes.toString('base64url')}`, 'record-a')).toThrow(/cannot be decrypted/);
  expect(() => openSecret(key, 'v0.abc', 'record-a')).toThrow(/unknown format/);
});

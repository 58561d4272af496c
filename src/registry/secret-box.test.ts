import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { ErrorCode } from '../errors.js';
import { SecretBox } from './secret-box.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sb-key-'));
  dirs.push(dir);
  return dir;
}

test('round trip, a fresh IV each time, bound to its context', () => {
  const box = new SecretBox(SecretBox.generateKey(), 'test');
  const first = box.encrypt('s3cret', 'server:1');
  const second = box.encrypt('s3cret', 'server:1');
  expect(first).not.toBe(second);
  expect(first).toMatch(new RegExp(`^sb1\\.${box.keyId}\\.[A-Za-z0-9_-]+$`));
  expect(first).not.toContain('s3cret');
  expect(box.decrypt(first, 'server:1')).toBe('s3cret');
  expect(() => box.decrypt(first, 'server:2')).toThrow(/failed authentication/);
});

test('a digest is stable for one key and purpose, and cannot be reproduced without the key', () => {
  const { createHash } = process.getBuiltinModule('node:crypto');
  const key = SecretBox.generateKey();
  const box = new SecretBox(key, 'test');
  const digest = box.digest('{"env":{"TOKEN":"s3cret"}}', 'tool-catalog');
  expect(digest).toMatch(/^[0-9a-f]{64}$/);
  expect(new SecretBox(key, 'again').digest('{"env":{"TOKEN":"s3cret"}}', 'tool-catalog')).toBe(digest);
  expect(box.digest('{"env":{"TOKEN":"s3cret"}}', 'other')).not.toBe(digest);
  expect(new SecretBox(SecretBox.generateKey(), 'test').digest('{"env":{"TOKEN":"s3cret"}}', 'tool-catalog')).not.toBe(digest);
  // Not a plain hash of the text, which anyone holding the database could check guesses against.
  expect(digest).not.toBe(createHash('sha256').update('{"env":{"TOKEN":"s3cret"}}').digest('hex'));
});

test('tampering is detected', () => {
  const box = new SecretBox(SecretBox.generateKey(), 'test');
  const ciphertext = box.encrypt('value', 'c');
  const tampered = `${ciphertext.slice(0, -3)}${ciphertext.at(-3) === 'A' ? 'B' : 'A'}${ciphertext.slice(-2)}`;
  expect(() => box.decrypt(tampered, 'c')).toThrow(expect.objectContaining({ code: ErrorCode.SecretKeyInvalid }));
  expect(() => box.decrypt('plain text', 'c')).toThrow(/not in a known format/);
});

test('another key cannot decrypt, and says which key is needed', () => {
  const one = new SecretBox(SecretBox.generateKey(), 'one');
  const two = new SecretBox(SecretBox.generateKey(), 'two');
  const ciphertext = one.encrypt('value', 'c');
  expect(() => two.decrypt(ciphertext, 'c')).toThrow(`a stored secret was encrypted with key ${one.keyId}, but the key in two is ${two.keyId}`);
});

test('after useKey, new values use the new key and old ones still decrypt', () => {
  const box = new SecretBox(SecretBox.generateKey(), 'test');
  const old = box.encrypt('old', 'c');
  const next = SecretBox.generateKey();
  box.useKey(next);
  expect(box.keyId).toBe(next.id);
  expect(SecretBox.keyIdOf(box.encrypt('new', 'c'))).toBe(next.id);
  expect(box.decrypt(old, 'c')).toBe('old');
});

test('keys parse from base64 or hex, and nothing else', () => {
  const key = SecretBox.generateKey();
  expect(SecretBox.parseKey(key.key.toString('base64'), 'x').id).toBe(key.id);
  expect(SecretBox.parseKey(key.key.toString('hex'), 'x').id).toBe(key.id);
  expect(SecretBox.parseKey(key.key.toString('base64url'), 'x').id).toBe(key.id);
  expect(() => SecretBox.parseKey('too-short', 'SWITCHBOARD_SECRET_KEY')).toThrow('the secret key in SWITCHBOARD_SECRET_KEY is not 32 bytes of base64 or hex');
  expect(() => SecretBox.parseKey(Buffer.alloc(16).toString('hex'), 'x')).toThrow(/not 32 bytes/);
});

test('a key file is created with mode 0600 in a 0700 folder, then reused', () => {
  const file = join(tempDir(), 'nested', 'secret.key');
  const created = SecretBox.load({ keyFile: file }, true);
  expect(created).toBeDefined();
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(statSync(join(file, '..')).mode & 0o777).toBe(0o700);
  const again = SecretBox.load({ keyFile: file }, true);
  expect(again?.keyId).toBe(created?.keyId);
  expect(SecretBox.load({ keyFile: join(tempDir(), 'missing.key') }, false)).toBeUndefined();
});

test('the environment key wins over the file', () => {
  const file = join(tempDir(), 'secret.key');
  const fileKey = SecretBox.generateKey();
  writeFileSync(file, SecretBox.formatKey(fileKey));
  const envKey = SecretBox.generateKey();
  const box = SecretBox.load({ secretKey: SecretBox.formatKey(envKey), keyFile: file }, true);
  expect(box?.keyId).toBe(envKey.id);
  expect(box?.source).toBe('SWITCHBOARD_SECRET_KEY');
  expect(readFileSync(file, 'utf8')).toBe(SecretBox.formatKey(fileKey));
});

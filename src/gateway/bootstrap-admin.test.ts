/**
 * First start and later starts over a real SQLite registry: the admin and its token are created once,
 * the token file is private, SWITCHBOARD_TOKEN is registered (by hash) and then recognised.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { ServerRegistry } from '../registry/index.js';
import { bootstrapAdmin } from './bootstrap-admin.js';

let dir: string;
let registry: ServerRegistry;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sb-bootstrap-'));
  registry = await ServerRegistry.open({ db: join(dir, 'switchboard.db'), keyFile: join(dir, 'secret.key'), watch: false });
});
afterEach(async () => {
  await registry.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the first start creates the admin and a token, written to a file only its owner can read; later starts find it', async () => {
  const tokenFile = join(dir, 'sub', 'token');
  const first = await bootstrapAdmin(registry, { tokenFile });
  expect(first).toMatchObject({ source: 'created', createdUser: true, user: { name: 'admin', isAdmin: true } });
  expect(readFileSync(tokenFile, 'utf8').trim()).toBe(first.token);
  expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
  expect((await registry.verifyToken(first.token ?? ''))?.name).toBe('admin');
  const second = await bootstrapAdmin(registry, { tokenFile });
  expect(second).toMatchObject({ source: 'file', token: first.token, createdUser: false });
  expect(await registry.tokens.list(first.user)).toHaveLength(1);
});

test('with an admin but no usable token file, no new token is minted', async () => {
  const tokenFile = join(dir, 'token');
  await bootstrapAdmin(registry, { tokenFile });
  writeFileSync(tokenFile, 'sb_000000000000_stale\n');
  const later = await bootstrapAdmin(registry, { tokenFile });
  expect(later.source).toBe('none');
  expect(later.token).toBeUndefined();
});

test('SWITCHBOARD_TOKEN becomes the admin token (only its hash is stored), also on the first start', async () => {
  const chosen = 'ci-token-0123456789abcdef0123456789abcdef';
  const result = await bootstrapAdmin(registry, { tokenFile: join(dir, 'token'), envToken: chosen });
  expect(result).toMatchObject({ source: 'env', token: chosen, createdUser: true });
  expect((await registry.verifyToken(chosen))?.isAdmin).toBe(true);
  expect((await registry.verifyToken(`${chosen}x`))).toBeUndefined();
  // Nothing is written: the secret stays where the operator put it.
  expect(() => readFileSync(join(dir, 'token'))).toThrow();
  expect(await bootstrapAdmin(registry, { tokenFile: join(dir, 'token'), envToken: chosen })).toMatchObject({ source: 'env', createdUser: false });
});

test('SWITCHBOARD_TOKEN of a non-admin, or a too-short one, is refused with a reason', async () => {
  await bootstrapAdmin(registry, { tokenFile: join(dir, 'token') });
  const tenant = await registry.users.add('tenant');
  const { token } = await registry.tokens.create(tenant);
  await expect(bootstrapAdmin(registry, { tokenFile: join(dir, 'token'), envToken: token })).rejects.toThrow('SWITCHBOARD_TOKEN is a token of user "tenant", who is not an administrator');
  await expect(bootstrapAdmin(registry, { tokenFile: join(dir, 'token'), envToken: 'short' })).rejects.toThrow(/a token must be 32 to 256 characters/);
});

test('a user named admin who is not one is not promoted silently', async () => {
  await registry.users.add('admin');
  await expect(bootstrapAdmin(registry, { tokenFile: join(dir, 'token') })).rejects.toMatchObject({ code: 'ALREADY_EXISTS' });
});

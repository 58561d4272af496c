import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { defaultDataDir, loadSecretKey } from './secret-key.js';

const directories: string[] = [];
afterEach(async () => {
  await Promise.all(directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});
async function temporary(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'switchboard-key-'));
  directories.push(directory);
  return directory;
}

test('SWITCHBOARD_SECRET_KEY is taken as hex or base64 of 32 bytes, and anything else is refused', async () => {
  const key = randomBytes(32);
  expect((await loadSecretKey({ env: { SWITCHBOARD_SECRET_KEY: key.toString('hex') } })).equals(key)).toBe(true);
  expect((await loadSecretKey({ env: { SWITCHBOARD_SECRET_KEY: key.toString('base64') } })).equals(key)).toBe(true);
  await expect(loadSecretKey({ env: { SWITCHBOARD_SECRET_KEY: 'hunter2' } })).rejects.toThrow(/not a 32-byte key/);
});

test('without the variable, a key file is created once with mode 0600 and read back after', async () => {
  const keyFile = join(await temporary(), 'nested', 'secret.key');
  const first = await loadSecretKey({ env: {}, keyFile });
  expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
  expect((await loadSecretKey({ env: {}, keyFile })).equals(first)).toBe(true);
  expect((await readFile(keyFile, 'utf8')).trim()).toBe(first.toString('base64'));
});

test('a key file readable by others is refused with the fix', async () => {
  const keyFile = join(await temporary(), 'secret.key');
  await writeFile(keyFile, randomBytes(32).toString('base64'));
  await chmod(keyFile, 0o644);
  await expect(loadSecretKey({ env: {}, keyFile })).rejects.toThrow(/readable by other users/);
});

test('the data directory is $SWITCHBOARD_HOME or .switchboard in the working directory', () => {
  expect(defaultDataDir({ SWITCHBOARD_HOME: '/srv/sb' }, '/work')).toBe('/srv/sb');
  expect(defaultDataDir({}, '/work')).toBe('/work/.switchboard');
});

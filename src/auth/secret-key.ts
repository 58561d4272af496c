/**
 * @module auth/secret-key
 * The key that encrypts secrets at rest (OAuth tokens here; the registry's secrets use the same
 * source): `SWITCHBOARD_SECRET_KEY` (32 bytes as 64 hex digits or base64), else a key file created
 * once with mode 0600 in the data directory.
 */

import { randomBytes } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { ErrorCode, SwitchboardError } from '../errors.js';

/** Bytes of an AES-256 key. */
export const SECRET_KEY_BYTES = 32;

/** The name of the key file in the data directory. @default 'secret.key' */
export const SECRET_KEY_FILE = 'secret.key';

/** The data directory: `$SWITCHBOARD_HOME`, else `.switchboard` in the working directory. */
export function defaultDataDir(env: Readonly<Record<string, string | undefined>> = process.env, cwd: string = process.cwd()): string {
  const home = env.SWITCHBOARD_HOME;
  return home !== undefined && home !== '' ? resolve(cwd, home) : join(cwd, '.switchboard');
}

/** Options of {@link loadSecretKey}. */
export interface LoadSecretKeyOptions {
  /** @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /** The key file used when the variable is unset. @default `<data dir>/secret.key` */
  keyFile?: string;
}

/** Loads (or creates) the 32-byte key. Throws a typed error when the key is malformed or exposed. */
export async function loadSecretKey(options: LoadSecretKeyOptions = {}): Promise<Buffer> {
  const env = options.env ?? process.env;
  const fromEnv = env.SWITCHBOARD_SECRET_KEY;
  if (fromEnv !== undefined && fromEnv !== '') {
    const key = decodeKey(fromEnv);
    if (key === undefined) {
      throw new SwitchboardError(ErrorCode.ConfigInvalid, 'SWITCHBOARD_SECRET_KEY is not a 32-byte key', {
        hint: 'use 64 hex digits or base64 of 32 random bytes, e.g. `openssl rand -base64 32`',
      });
    }
    return key;
  }
  const keyFile = options.keyFile ?? join(defaultDataDir(env), SECRET_KEY_FILE);
  const existing = await readKeyFile(keyFile);
  if (existing !== undefined) return existing;
  await mkdir(dirname(keyFile), { recursive: true, mode: 0o700 });
  const key = randomBytes(SECRET_KEY_BYTES);
  try {
    // `wx`: two processes starting at once must not overwrite each other's key.
    await writeFile(keyFile, `${key.toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw keyFileError(keyFile, error);
    const raced = await readKeyFile(keyFile);
    if (raced === undefined) throw keyFileError(keyFile, error);
    return raced;
  }
}

async function readKeyFile(keyFile: string): Promise<Buffer | undefined> {
  let text: string;
  try {
    const info = await stat(keyFile);
    if ((info.mode & 0o077) !== 0) {
      throw new SwitchboardError(ErrorCode.ConfigInvalid, `the key file ${keyFile} is readable by other users`, {
        hint: `run: chmod 600 ${keyFile}`,
      });
    }
    text = await readFile(keyFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw keyFileError(keyFile, error);
  }
  const key = decodeKey(text.trim());
  if (key === undefined) {
    throw new SwitchboardError(ErrorCode.ConfigInvalid, `the key file ${keyFile} does not hold a 32-byte key`, {
      hint: 'restore it from a backup; deleting it makes every stored secret unreadable',
    });
  }
  return key;
}

function keyFileError(keyFile: string, error: unknown): SwitchboardError {
  if (error instanceof SwitchboardError) return error;
  return new SwitchboardError(ErrorCode.ConfigInvalid, `cannot use the key file ${keyFile}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, {
    cause: error,
    hint: 'set SWITCHBOARD_SECRET_KEY, or SWITCHBOARD_HOME to a writable directory',
  });
}

function decodeKey(text: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) {
    const bytes = Buffer.from(text, 'base64');
    if (bytes.length === SECRET_KEY_BYTES) return bytes;
  }
  return undefined;
}


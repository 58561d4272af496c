/**
 * @module auth/file-oauth-token-store
 * The CLI's {@link OAuthTokenStore}: one file per server identity in `<data dir>/oauth/` (directory
 * 0700, files 0600), each record encrypted with AES-256-GCM under the secret key and bound to its key.
 */

import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorCode, SwitchboardError } from '../errors.js';
import type { OAuthRecord, OAuthTokenStore } from './oauth-token-store.js';
import { openSecret, sealSecret } from './seal-secret.js';
import { defaultDataDir, loadSecretKey } from './secret-key.js';

/** Options of {@link FileOAuthTokenStore}. */
export interface FileOAuthTokenStoreOptions {
  /** @default `<data dir>/oauth` (see {@link defaultDataDir}) */
  directory?: string;
  /** The 32-byte key, or a function that loads it on first use. @default {@link loadSecretKey} */
  key?: Buffer | (() => Promise<Buffer>);
}

interface StoredFile {
  version: 1;
  sealed: string;
}

/**
 * Encrypted records on disk.
 *
 * @example
 * ```ts
 * const store = new FileOAuthTokenStore();
 * const connection = await ServerConnection.open(spec, { oauth: { store } });
 * ```
 */
export class FileOAuthTokenStore implements OAuthTokenStore {
  readonly directory: string;
  readonly #keySource: () => Promise<Buffer>;
  #key: Promise<Buffer> | undefined;

  constructor(options: FileOAuthTokenStoreOptions = {}) {
    this.directory = options.directory ?? join(defaultDataDir(), 'oauth');
    const key = options.key;
    this.#keySource = key === undefined ? () => loadSecretKey() : Buffer.isBuffer(key) ? async () => key : key;
  }

  async get(key: string): Promise<OAuthRecord | undefined> {
    let text: string;
    try {
      text = await readFile(this.#path(key), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw this.#ioError('read', error);
    }
    const stored = parseStoredFile(text);
    if (stored === undefined) throw new SwitchboardError(ErrorCode.ConfigInvalid, `the OAuth record ${this.#path(key)} is damaged`, { hint: 'delete it and log in again' });
    return JSON.parse(openSecret(await this.#secretKey(), stored.sealed, key)) as OAuthRecord;
  }

  async save(key: string, record: OAuthRecord): Promise<void> {
    const sealed = sealSecret(await this.#secretKey(), JSON.stringify(record), key);
    const file: StoredFile = { version: 1, sealed };
    const path = this.#path(key);
    // Write then rename, so a reader never sees half a record.
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await mkdir(this.directory, { recursive: true, mode: 0o700 });
      await writeFile(temporary, JSON.stringify(file), { mode: 0o600 });
      await chmod(temporary, 0o600);
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw this.#ioError('write', error);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await rm(this.#path(key), { force: true });
    } catch (error) {
      throw this.#ioError('delete', error);
    }
  }

  #secretKey(): Promise<Buffer> {
    this.#key ??= this.#keySource();
    // A failed load (bad permissions) may be fixed by the user; try again next time.
    this.#key.catch(() => (this.#key = undefined));
    return this.#key;
  }

  /** File names are hashes of the key: a server URL can hold characters no file system accepts. */
  #path(key: string): string {
    return join(this.directory, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`);
  }

  #ioError(operation: string, error: unknown): SwitchboardError {
    return new SwitchboardError(ErrorCode.ConfigInvalid, `cannot ${operation} OAuth records in ${this.directory}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, {
      cause: error,
      hint: 'check the directory permissions, or set SWITCHBOARD_HOME to a writable directory',
    });
  }
}

function parseStoredFile(text: string): StoredFile | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && (value as { version?: unknown }).version === 1 && typeof (value as { sealed?: unknown }).sealed === 'string') {
      return value as StoredFile;
    }
  } catch {
    // falls through
  }
  return undefined;
}

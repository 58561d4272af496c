/**
 * @module registry/secret-box
 * Secrets at rest: AES-256-GCM with a fresh 96-bit IV per value, and the row the value belongs to as
 * additional authenticated data, so a ciphertext copied into another row (another user's server)
 * does not decrypt. Each ciphertext names the key that made it (`sb1.<keyId>.<data>`), which makes
 * a wrong or missing key a clear error instead of garbage, and key rotation restartable.
 *
 * The key comes from `SWITCHBOARD_SECRET_KEY` (32 bytes, base64 or hex) or from a key file created
 * with mode 0600 on first use.
 */

import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ErrorCode, SwitchboardError } from '../errors.js';

/** The environment variable holding the key. */
export const SECRET_KEY_ENV = 'SWITCHBOARD_SECRET_KEY';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT = 'sb1';

/** One AES-256 key and its id (a fingerprint, safe to store and print). */
export interface SecretKey {
  id: string;
  key: Buffer;
}

/** Where the key comes from. */
export interface SecretKeySource {
  /** The key itself (base64 or hex of 32 bytes). Wins over the file. */
  secretKey?: string;
  /** The key file, read when no key is given and created (0600) when it does not exist. */
  keyFile?: string;
}

/** Encrypts and decrypts secret values. */
export class SecretBox {
  #current: SecretKey;
  /** Keys that may still decrypt (during a rotation). */
  readonly #others = new Map<string, SecretKey>();
  /** Where the current key came from, for messages. */
  readonly source: string;

  constructor(current: SecretKey, source: string, others: readonly SecretKey[] = []) {
    this.#current = current;
    this.source = source;
    for (const key of others) if (key.id !== current.id) this.#others.set(key.id, key);
  }

  /** The id of the key new values are encrypted with. */
  get keyId(): string {
    return this.#current.id;
  }

  /** A key from its text form; throws SECRET_KEY_INVALID naming `where` when it is not 32 bytes. */
  static parseKey(text: string, where: string): SecretKey {
    const trimmed = text.trim();
    let key: Buffer | undefined;
    if (/^[0-9a-f]{64}$/i.test(trimmed)) key = Buffer.from(trimmed, 'hex');
    else if (/^[A-Za-z0-9+/_-]{42,44}={0,2}$/.test(trimmed)) key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (key?.length !== KEY_BYTES) {
      throw new SwitchboardError(ErrorCode.SecretKeyInvalid, `the secret key in ${where} is not 32 bytes of base64 or hex`, {
        hint: 'generate one with `openssl rand -base64 32`',
      });
    }
    return { id: keyIdOf(key), key };
  }

  /** A new random key. */
  static generateKey(): SecretKey {
    const key = randomBytes(KEY_BYTES);
    return { id: keyIdOf(key), key };
  }

  /** The text form of a key (base64), as written to a key file. */
  static formatKey(key: SecretKey): string {
    return key.key.toString('base64');
  }

  /**
   * Loads the key: `secretKey` if given, else the key file, created with a new key when missing and
   * `mayCreate` is true. Returns undefined when there is no key and none may be created.
   */
  static load(source: SecretKeySource, mayCreate: boolean): SecretBox | undefined {
    if (source.secretKey !== undefined && source.secretKey !== '') {
      return new SecretBox(SecretBox.parseKey(source.secretKey, SECRET_KEY_ENV), SECRET_KEY_ENV);
    }
    const file = source.keyFile;
    if (file === undefined) return undefined;
    if (existsSync(file)) return new SecretBox(SecretBox.parseKey(readFileSync(file, 'utf8'), file), file);
    if (!mayCreate) return undefined;
    const key = SecretBox.generateKey();
    try {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      writeKeyFile(file, key, 'wx');
    } catch (error) {
      // Another process created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw keyFileError(file, error);
      return new SecretBox(SecretBox.parseKey(readFileSync(file, 'utf8'), file), file);
    }
    return new SecretBox(key, file);
  }

  /** Encrypts `plaintext`, bound to `context` (e.g. `server:<id>`). */
  encrypt(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#current.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const data = Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
    return `${FORMAT}.${this.#current.id}.${data}`;
  }

  /**
   * A keyed digest of `text` (hex), under a subkey of the current key for `purpose`: equal texts match,
   * but a database without the key cannot be checked against guesses of the secrets in `text`.
   * Changes when the key is rotated.
   */
  digest(text: string, purpose: string): string {
    const subkey = Buffer.from(hkdfSync('sha256', this.#current.key, '', `mcp-switchboard digest:${purpose}`, KEY_BYTES));
    return createHmac('sha256', subkey).update(text).digest('hex');
  }

  /**
   * A 32-byte subkey of the current key for `purpose` (HKDF-SHA256): derived once by whoever needs a key
   * of its own (the gateway's session ids), so that key never doubles as the secrets' one.
   */
  subkey(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.#current.key, '', `mcp-switchboard subkey:${purpose}`, KEY_BYTES));
  }

  /** Decrypts a value made by {@link encrypt} with the same `context`. */
  decrypt(ciphertext: string, context: string): string {
    const [format, keyId, data] = ciphertext.split('.');
    if (format !== FORMAT || keyId === undefined || data === undefined) {
      throw new SwitchboardError(ErrorCode.SecretKeyInvalid, `a stored secret (${context}) is not in a known format`);
    }
    const key = keyId === this.#current.id ? this.#current : this.#others.get(keyId);
    if (key === undefined) {
      throw new SwitchboardError(
        ErrorCode.SecretKeyInvalid,
        `a stored secret was encrypted with key ${keyId}, but the key in ${this.source} is ${this.#current.id}`,
        { hint: `use the key this database was written with (set ${SECRET_KEY_ENV} or restore the key file)` },
      );
    }
    const raw = Buffer.from(data, 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new SwitchboardError(ErrorCode.SecretKeyInvalid, `a stored secret (${context}) is truncated`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch (error) {
      throw new SwitchboardError(ErrorCode.SecretKeyInvalid, `a stored secret (${context}) failed authentication: it was altered or moved from another record`, { cause: error });
    }
  }

  /** The id of the key that made `ciphertext`. */
  static keyIdOf(ciphertext: string): string | undefined {
    return ciphertext.split('.')[1];
  }

  /** Makes `key` the key for new values; the old one still decrypts. */
  useKey(key: SecretKey): void {
    if (key.id === this.#current.id) return;
    this.#others.set(this.#current.id, this.#current);
    this.#current = key;
  }
}

/** Writes a key file with mode 0600 (`flag` `wx` fails when it exists). */
export function writeKeyFile(file: string, key: SecretKey, flag: 'wx' | 'w'): void {
  const fd = openSync(file, flag, 0o600);
  try {
    writeSync(fd, `${SecretBox.formatKey(key)}\n`);
  } finally {
    closeSync(fd);
  }
}

/** The file a rotation writes the new key to before the database commits (renamed over the key file after). */
export function pendingKeyFile(file: string): string {
  return `${file}.next`;
}

/** Writes `key` to the pending file of `file`, replacing any left by an interrupted rotation. */
export function writePendingKeyFile(file: string, key: SecretKey): void {
  const next = pendingKeyFile(file);
  rmSync(next, { force: true });
  writeKeyFile(next, key, 'wx');
}

/** Finishes a rotation: the pending key file replaces the key file (atomic rename). */
export function commitPendingKeyFile(file: string): void {
  renameSync(pendingKeyFile(file), file);
}

function keyIdOf(key: Buffer): string {
  return createHash('sha256').update('mcp-switchboard key id\0').update(key).digest('hex').slice(0, 16);
}

function keyFileError(file: string, cause: unknown): SwitchboardError {
  return new SwitchboardError(ErrorCode.SecretKeyInvalid, `cannot create the key file ${file}: ${cause instanceof Error ? cause.message : String(cause)}`, {
    cause,
    hint: `check the folder's permissions, or set ${SECRET_KEY_ENV}`,
  });
}

/**
 * @module auth/seal-secret
 * AES-256-GCM for secrets at rest. A sealed value is `v1.<base64url(iv ‖ tag ‖ ciphertext)>`; the
 * associated data binds it to where it is stored, so a value copied into another record fails to open.
 */

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ErrorCode, SwitchboardError } from '../errors.js';

const VERSION = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Encrypts `plaintext` under `key` (32 bytes), bound to `associatedData`. */
export function sealSecret(key: Buffer, plaintext: string, associatedData: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${VERSION}${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
}

/** Decrypts a value made by {@link sealSecret}; throws a typed error when the key or binding is wrong. */
export function openSecret(key: Buffer, sealed: string, associatedData: string): string {
  if (!sealed.startsWith(VERSION)) throw unreadable('unknown format');
  const bytes = Buffer.from(sealed.slice(VERSION.length), 'base64url');
  if (bytes.length < IV_BYTES + TAG_BYTES) throw unreadable('too short');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch (error) {
    throw unreadable('wrong key or tampered data', error);
  }
}

function unreadable(reason: string, cause?: unknown): SwitchboardError {
  return new SwitchboardError(ErrorCode.ConfigInvalid, `a stored secret cannot be decrypted (${reason})`, {
    ...(cause === undefined ? {} : { cause }),
    hint: 'the secret key changed (SWITCHBOARD_SECRET_KEY or the key file); restore it, or log in again',
  });
}

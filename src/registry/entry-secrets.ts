/**
 * @module registry/entry-secrets
 * The secret values of a server entry, split off to be encrypted (sealing), merged back (unsealing),
 * masked for display, and restored when an edited listing sends a masked value back unchanged. All
 * four walk {@link SECRET_FIELDS}, the one list of secret-bearing fields.
 *
 * The sealed part mirrors the entry's shape (`{ apiKey, headers, oauth: { clientSecret } }`), so
 * secrets sealed before `oauth` fields were listed read back as they were.
 */

import { isDeepStrictEqual } from 'node:util';
import { isPlainObject, valueAtPath, withValueAtPath, type FieldPath } from '../config/field-path.js';
import { SECRET_FIELDS, type SecretField } from '../config/secret-fields.js';
import { ErrorCode, SwitchboardError } from '../errors.js';
import { maskSecret, maskUrl, maskValues, urlHasCredentials } from './mask-secret.js';

/** The secret values of an entry, in the entry's shape. */
export type SecretPart = Record<string, unknown>;

/** An entry split in two: what is stored as it is, and what is stored encrypted. */
export interface SealedEntry {
  /** The entry without its secret values (credentials in URLs masked). */
  publicPart: Record<string, unknown>;
  /** Only the secret values; empty when there are none. */
  secretPart: SecretPart;
}

/** Splits the secrets off an entry. `secretParameters`: the template parameters marked secret. */
export function sealEntry(entry: Readonly<Record<string, unknown>>, secretParameters: ReadonlySet<string> = new Set()): SealedEntry {
  let publicPart: Record<string, unknown> = { ...entry };
  let secretPart: SecretPart = {};
  for (const field of SECRET_FIELDS) {
    const value = valueAtPath(entry, field.path);
    switch (field.kind) {
      case 'value':
        if (typeof value !== 'string') continue;
        secretPart = withValueAtPath(secretPart, field.path, value);
        publicPart = withValueAtPath(publicPart, field.path, undefined);
        break;
      case 'values':
        if (!isScalarRecord(value) || Object.keys(value).length === 0) continue;
        secretPart = withValueAtPath(secretPart, field.path, stringValues(value));
        publicPart = withValueAtPath(publicPart, field.path, undefined);
        break;
      case 'url':
        if (!isCredentialUrl(value)) continue;
        secretPart = withValueAtPath(secretPart, field.path, value);
        publicPart = withValueAtPath(publicPart, field.path, maskUrl(value));
        break;
      case 'parameters': {
        if (!isScalarRecord(value) || secretParameters.size === 0) continue;
        const hidden = Object.entries(value).filter(([key]) => secretParameters.has(key));
        publicPart = withValueAtPath(publicPart, field.path, Object.fromEntries(Object.entries(value).filter(([key]) => !secretParameters.has(key))));
        if (hidden.length > 0) secretPart = withValueAtPath(secretPart, field.path, stringValues(Object.fromEntries(hidden)));
        break;
      }
    }
  }
  return { publicPart, secretPart };
}

/** The entry with its secret values merged back. Never leaves the registry. */
export function unsealEntry(publicPart: Readonly<Record<string, unknown>>, secretPart: SecretPart): Record<string, unknown> {
  let merged: Record<string, unknown> = { ...publicPart };
  for (const field of SECRET_FIELDS) {
    const secret = valueAtPath(secretPart, field.path);
    if (secret === undefined) continue;
    const visible = valueAtPath(publicPart, field.path);
    merged = withValueAtPath(merged, field.path, field.kind === 'parameters' ? { ...(isScalarRecord(visible) ? visible : {}), ...(isScalarRecord(secret) ? secret : {}) } : secret);
  }
  return merged;
}

/**
 * Checks a decrypted secret part: an object holding only listed fields, each of its kind's type.
 * Throws SECRET_KEY_INVALID naming `where` otherwise.
 */
export function parseSecretPart(value: unknown, where: string): SecretPart {
  if (!isPlainObject(value) || !onlyListedFields(value, [])) throw badSecrets(where);
  for (const field of SECRET_FIELDS) {
    const secret = valueAtPath(value, field.path);
    if (secret === undefined) continue;
    const valid = field.kind === 'value' || field.kind === 'url' ? typeof secret === 'string' : isStringRecord(secret);
    if (!valid) throw badSecrets(where);
  }
  return value;
}

/**
 * True when a stored public part still holds a secret value in clear — a row written before its
 * field was listed (the OAuth secrets, before issue 14). Template parameters are left out: which
 * are secret depends on the template, and they were sealed when the instance was stored.
 */
export function hasClearSecrets(publicPart: Readonly<Record<string, unknown>>): boolean {
  return SECRET_FIELDS.some((field) => {
    const value = valueAtPath(publicPart, field.path);
    switch (field.kind) {
      case 'value':
        return typeof value === 'string';
      case 'values':
        return isScalarRecord(value) && Object.keys(value).length > 0;
      case 'url':
        // A sealed row keeps the masked URL, which masks to itself.
        return isCredentialUrl(value) && maskUrl(value) !== value;
      case 'parameters':
        return false;
    }
  });
}

/** The entry as shown to people and programs: every secret value masked. */
export function maskEntry(entry: Readonly<Record<string, unknown>>, secretParameters: ReadonlySet<string> = new Set()): Record<string, unknown> {
  let masked: Record<string, unknown> = { ...entry };
  for (const field of SECRET_FIELDS) {
    const value = valueAtPath(entry, field.path);
    const shown = maskedValue(field, value, secretParameters);
    if (shown !== undefined) masked = withValueAtPath(masked, field.path, shown);
  }
  return masked;
}

/** Secret values sent back exactly as they were shown (masked) keep their stored value. */
export function restoreMasked(entry: Readonly<Record<string, unknown>>, previous: Readonly<Record<string, unknown>>): Record<string, unknown> {
  let restored: Record<string, unknown> = { ...entry };
  const kept: string[] = [];
  for (const field of SECRET_FIELDS) {
    const next = valueAtPath(entry, field.path);
    const before = valueAtPath(previous, field.path);
    const value = restoredValue(field, next, before);
    if (value === undefined) continue;
    restored = withValueAtPath(restored, field.path, value);
    // A URL's own credentials go where the URL does: only the other fields' masks keep a secret for a destination.
    if (field.kind !== 'url' && keptAMask(field, next, before)) kept.push(field.path.join('.'));
  }
  // A stored secret goes only where it went: a mask given back while the destination changed would send it
  // to a new host or program of the editor's choosing (a tenant editing a server an operator gave a key).
  const moved = kept.length === 0 ? undefined : DESTINATION_FIELDS.find((path) => !isDeepStrictEqual(destinationOf(valueAtPath(restored, path)), destinationOf(valueAtPath(previous, path))));
  if (moved !== undefined) {
    throw new SwitchboardError(ErrorCode.InvalidArgument, `${kept.join(', ')} ${kept.length === 1 ? 'is' : 'are'} given as its mask while ${moved.join('.')} changed: a stored secret is never sent to a new destination`, {
      hint: `give ${kept.join(', ')} again in full, or leave ${moved.join('.')} as it was`,
    });
  }
  return restored;
}

/**
 * Where an entry's secrets go: the server's address or program, a template and its parameters, the
 * identity provider of the jwt-bearer grant. A change to any of these needs the secrets given again.
 */
const DESTINATION_FIELDS: readonly FieldPath[] = [['url'], ['path'], ['type'], ['command'], ['args'], ['cwd'], ['template'], ['parameters'], ['oauth', 'idp', 'tokenEndpoint'], ['oauth', 'idp', 'url']];

/** A destination field's value as it decides where secrets go: of a URL its origin (another path on the same server is the same server). */
function destinationOf(value: unknown): unknown {
  return typeof value === 'string' && /^[a-z][a-z0-9+.-]*:\/\//i.test(value) && URL.canParse(value) ? new URL(value).origin : value;
}

/** True when `next` gave back at least one masked value of `before` (not only new values). */
function keptAMask(field: SecretField, next: unknown, before: unknown): boolean {
  if (field.kind === 'value') return typeof next === 'string' && typeof before === 'string' && next === maskSecret(before);
  if (!isScalarRecord(next) || !isScalarRecord(before)) return false;
  return Object.entries(next).some(([name, value]) => before[name] !== undefined && value === maskSecret(String(before[name])));
}

function maskedValue(field: SecretField, value: unknown, secretParameters: ReadonlySet<string>): unknown {
  switch (field.kind) {
    case 'value':
      return typeof value === 'string' ? maskSecret(value) : undefined;
    case 'values':
      return isScalarRecord(value) ? maskValues(stringValues(value)) : undefined;
    case 'url':
      return typeof value === 'string' && /^https?:\/\//i.test(value) ? maskUrl(value) : undefined;
    case 'parameters':
      if (!isScalarRecord(value) || secretParameters.size === 0) return undefined;
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, secretParameters.has(key) ? maskSecret(String(item)) : item]));
  }
}

function restoredValue(field: SecretField, next: unknown, before: unknown): unknown {
  switch (field.kind) {
    case 'value':
      return typeof next === 'string' && typeof before === 'string' && next === maskSecret(before) ? before : undefined;
    case 'url':
      return typeof next === 'string' && typeof before === 'string' && /^https?:\/\//i.test(before) && next === maskUrl(before) ? before : undefined;
    case 'values':
    case 'parameters':
      if (!isScalarRecord(next) || !isScalarRecord(before)) return undefined;
      return Object.fromEntries(Object.entries(next).map(([name, value]) => [name, before[name] !== undefined && value === maskSecret(String(before[name])) ? before[name] : value]));
  }
}

/** True when every key of `value` (at `at`) lies on the way to, or is, a listed field. */
function onlyListedFields(value: Record<string, unknown>, at: FieldPath): boolean {
  return Object.entries(value).every(([key, item]) => {
    const path = [...at, key];
    if (SECRET_FIELDS.some((field) => samePath(field.path, path))) return true;
    const isOnTheWay = SECRET_FIELDS.some((field) => field.path.length > path.length && samePath(field.path.slice(0, path.length), path));
    return isOnTheWay && isPlainObject(item) && onlyListedFields(item, path);
  });
}

function samePath(a: FieldPath, b: FieldPath): boolean {
  return a.length === b.length && a.every((key, index) => key === b[index]);
}

function isCredentialUrl(value: unknown): value is string {
  return typeof value === 'string' && /^https?:\/\//i.test(value) && urlHasCredentials(value);
}

function stringValues(record: Readonly<Record<string, string | number | boolean>>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, String(value)]));
}

function badSecrets(where: string): SwitchboardError {
  return new SwitchboardError(ErrorCode.SecretKeyInvalid, `the stored secrets of ${where} are not in a known shape`, { hint: 'the row was altered outside the registry; add the server again' });
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return isPlainObject(value) && Object.values(value).every((item) => typeof item === 'string');
}

function isScalarRecord(value: unknown): value is Record<string, string | number | boolean> {
  return isPlainObject(value) && Object.values(value).every((item) => ['string', 'number', 'boolean'].includes(typeof item));
}

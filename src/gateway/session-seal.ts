/**
 * @module gateway/session-seal
 * A 2025-era session id that carries the session: the negotiated protocol version, the client's
 * capabilities and info, the user and when it was issued, sealed with AES-256-GCM under a key every
 * replica derives once from the registry's secret key (HKDF; no KDF per request). Any replica of a
 * cluster (same database, same `SWITCHBOARD_SECRET_KEY`) can open an id it never issued and resume
 * the session; an id altered by one bit, sealed under another key or older than
 * {@link SESSION_MAX_AGE_MS} does not open. The id is not a credential: the request must also carry
 * the bearer token of the user inside it.
 */

import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** How long a session id stays valid after `initialize` (an ended session is remembered this long). @default 7 days */
export const SESSION_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
const PREFIX = 's1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Longest id accepted for opening (a header of a few KiB at most; bigger is refused before any work). */
const MAX_ID_CHARS = 8_192;
const AAD = Buffer.from('mcp-switchboard session id v1', 'utf8');

/** What a replica needs to resume a session. */
export interface SessionState {
  userId: string;
  /** The endpoint it was opened on: '' for `/mcp`, else the named endpoint's name. */
  endpoint: string;
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  clientInfo: { name: string; version: string } & Record<string, unknown>;
  /** Milliseconds since the epoch. */
  issuedAt: number;
}

/** Seals and opens session ids under one key. */
export class SessionSeal {
  readonly #key: Buffer;
  readonly #maxAgeMs: number;

  /** `key`: 32 bytes (see `ServerRegistry.derivedKey`). */
  constructor(key: Buffer, maxAgeMs: number = SESSION_MAX_AGE_MS) {
    if (key.length !== 32) throw new RangeError('a session key is 32 bytes');
    this.#key = key;
    this.#maxAgeMs = maxAgeMs;
  }

  /** A new session id carrying `state` (a fresh IV makes every id unique). */
  seal(state: SessionState): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(AAD);
    const plain = JSON.stringify({ u: state.userId, e: state.endpoint, v: state.protocolVersion, c: state.clientCapabilities, i: state.clientInfo, t: state.issuedAt });
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** The state inside `id`, or undefined when it is not an id this cluster sealed, or has expired. */
  open(id: string, now: number = Date.now()): SessionState | undefined {
    if (!id.startsWith(PREFIX) || id.length > MAX_ID_CHARS) return undefined;
    const raw = Buffer.from(id.slice(PREFIX.length), 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES + 2) return undefined;
    let plain: string;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(AAD);
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      plain = Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
    const state = stateOf(plain);
    if (state === undefined || !(now - state.issuedAt < this.#maxAgeMs)) return undefined;
    return state;
  }
}

/** The SHA-256 of a session id (hex): how an ended session is named in the database and on the wire. */
export function sessionDigest(id: string): string {
  return createHash('sha256').update(id, 'utf8').digest('hex');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Our own JSON, authenticated — checked anyway, so a bug in an older replica cannot crash a newer one. */
function stateOf(plain: string): SessionState | undefined {
  let value: unknown;
  try {
    value = JSON.parse(plain);
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  const { u, e, v, c, i, t } = value;
  if (typeof u !== 'string' || typeof e !== 'string' || typeof v !== 'string' || !isObject(c) || !isObject(i) || typeof i.name !== 'string' || typeof i.version !== 'string' || typeof t !== 'number') return undefined;
  return { userId: u, endpoint: e, protocolVersion: v, clientCapabilities: c, clientInfo: i as SessionState['clientInfo'], issuedAt: t };
}

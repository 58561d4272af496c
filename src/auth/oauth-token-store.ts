/**
 * @module auth/oauth-token-store
 * Where OAuth state is kept, per server identity (server URL + client): tokens, the registered client,
 * the PKCE verifier of a login in progress, the discovered metadata and the DPoP key. The interface is small on
 * purpose: the CLI keeps records in encrypted files ({@link FileOAuthTokenStore}), the registry keeps
 * them per user in its database, tests and short-lived programs keep them in memory.
 */

import type { OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { StoredDpopKey } from './dpop-keys.js';

/** Everything kept for one server identity. Every field is optional: a record fills up as a login goes. */
export interface OAuthRecord {
  /** The tokens (access, refresh, scope, `expires_in`, the issuing authorization server). Secret. */
  tokens?: StoredOAuthTokens;
  /** When `tokens` were obtained (ms since epoch): `expires_in` counts from here. */
  tokensObtainedAt?: number;
  /** The client as registered (dynamic registration or metadata document). May hold a secret. */
  clientInformation?: StoredOAuthClientInformation;
  /** The PKCE verifier of the authorization in progress. Secret. */
  codeVerifier?: string;
  /** Protected-resource and authorization-server metadata found by discovery. */
  discoveryState?: OAuthDiscoveryState;
  /** The DPoP signing key its DPoP-bound tokens are bound to. Secret. */
  dpopKey?: StoredDpopKey;
}

/**
 * Storage of {@link OAuthRecord}s by key ({@link oauthStoreKey}). Implementations must keep records
 * confidential (encrypted at rest) and may be shared by many connections: `save` replaces the record.
 */
export interface OAuthTokenStore {
  get(key: string): Promise<OAuthRecord | undefined>;
  save(key: string, record: OAuthRecord): Promise<void>;
  delete(key: string): Promise<void>;
}

/**
 * The key of a server identity: its URL (without fragment) and the client used with it (a configured
 * client id or metadata-document URL; `dynamic` for a dynamically registered client).
 */
export function oauthStoreKey(serverUrl: string, client: string | undefined): string {
  const url = new URL(serverUrl);
  url.hash = '';
  return `${url.href} ${client ?? 'dynamic'}`;
}

/** Keeps records in memory, for the life of the object (tests, programs that log in every run). */
export class MemoryOAuthTokenStore implements OAuthTokenStore {
  readonly #records = new Map<string, string>();

  async get(key: string): Promise<OAuthRecord | undefined> {
    const text = this.#records.get(key);
    // A copy, so a caller's later mutation cannot change what is stored.
    return text === undefined ? undefined : (JSON.parse(text) as OAuthRecord);
  }

  async save(key: string, record: OAuthRecord): Promise<void> {
    this.#records.set(key, JSON.stringify(record));
  }

  async delete(key: string): Promise<void> {
    this.#records.delete(key);
  }
}

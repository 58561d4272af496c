/**
 * @module registry/registry-oauth-token-store
 * One user's OAuth records (tokens, registered client, PKCE verifier, discovered metadata) kept in the
 * registry, encrypted and bound to their row like every other secret: the store each user's pooled
 * client gets, and the one `switchboard login SERVER --user U` writes.
 */

import { createHash } from 'node:crypto';
import type { OAuthRecord, OAuthTokenStore } from '../auth/oauth-token-store.js';
import type { UserRef } from './registry-types.js';
import type { UserSecretStore } from './user-secret-store.js';

/** The kind of user secret OAuth records are stored as. */
export const OAUTH_SECRET_KIND = 'oauth';

/**
 * {@link OAuthTokenStore} of one user, in {@link UserSecretStore}.
 *
 * @example
 * ```ts
 * const store = new RegistryOAuthTokenStore(registry.userSecrets, { name: 'alice' });
 * const client = await MultiServerClient.connect(config, { oauth: { store } });
 * ```
 */
export class RegistryOAuthTokenStore implements OAuthTokenStore {
  readonly #secrets: UserSecretStore;
  readonly #user: UserRef;

  constructor(secrets: UserSecretStore, user: UserRef) {
    this.#secrets = secrets;
    this.#user = user;
  }

  async get(key: string): Promise<OAuthRecord | undefined> {
    const text = await this.#secrets.get(this.#user, OAUTH_SECRET_KIND, nameOf(key));
    return text === undefined ? undefined : (JSON.parse(text) as OAuthRecord);
  }

  async save(key: string, record: OAuthRecord): Promise<void> {
    await this.#secrets.set(this.#user, OAUTH_SECRET_KIND, nameOf(key), JSON.stringify(record));
  }

  async delete(key: string): Promise<void> {
    await this.#secrets.delete(this.#user, OAUTH_SECRET_KIND, nameOf(key));
  }
}

/** Keys hold a server URL of any length; secret names are bounded, so they are a digest of it. */
function nameOf(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

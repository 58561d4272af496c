/**
 * @module registry/user-login-target
 * Where a registry user's OAuth login acts: the tokens go to that user's encrypted secrets (where
 * their pooled client finds them), and a tenant's own server is reached through the address-pinning
 * fetch of their policy, as their client reaches it.
 */

import type { FetchLike } from '@modelcontextprotocol/client';
import type { OAuthTokenStore } from '../auth/oauth-token-store.js';
import type { HttpServerSpec } from '../config/server-spec.js';
import type { Logger } from '../logger.js';
import { createPinnedFetch } from './pinned-fetch.js';
import { RegistryOAuthTokenStore } from './registry-oauth-token-store.js';
import type { RegistryUser } from './registry-types.js';
import type { ServerRegistry } from './server-registry.js';
import type { UserServerConfig } from './server-store.js';

/** The store and fetch of one user's login to one server; `close()` ends the fetch's sockets. */
export interface UserLoginTarget {
  store: OAuthTokenStore;
  fetch: FetchLike | undefined;
  close(): Promise<void>;
}

/** The login target of `spec` for `user`, whose registry configuration is `userConfig`. */
export async function userLoginTarget(registry: ServerRegistry, user: RegistryUser, userConfig: UserServerConfig, spec: HttpServerSpec, logger: Logger): Promise<UserLoginTarget> {
  const store = new RegistryOAuthTokenStore(registry.userSecrets, { id: user.id });
  if (userConfig.policy === undefined || !userConfig.tenantServers.has(spec.name)) return { store, fetch: undefined, close: async () => {} };
  const pinned = await createPinnedFetch({ policy: userConfig.policy, subject: `a server of user "${user.name}"`, logger });
  return { store, fetch: pinned.fetch, close: () => pinned.close() };
}

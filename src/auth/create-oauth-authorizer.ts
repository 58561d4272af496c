/**
 * @module auth/create-oauth-authorizer
 * Decides whether a remote server's connection gets OAuth, and builds it: when the server entry has
 * `oauth:`, or when the program passed OAuth options (a token store: the CLI's, a user's in the
 * registry), for every HTTP server that does not carry its own Authorization header.
 */

import type { FetchLike } from '@modelcontextprotocol/client';
import type { HttpServerSpec } from '../config/server-spec.js';
import type { Logger } from '../logger.js';
import { OAuthAuthorizer } from './oauth-authorizer.js';
import type { OAuthClientOptions } from './oauth-client-options.js';
import { MemoryOAuthTokenStore, oauthStoreKey } from './oauth-token-store.js';
import { SwitchboardOAuthProvider } from './switchboard-oauth-provider.js';

export type { OAuthClientOptions };

/** The authorizer for `spec`, or undefined when the connection does not use OAuth. */
export function createOAuthAuthorizer(
  spec: HttpServerSpec,
  options: OAuthClientOptions | undefined,
  context: { fetch: FetchLike; logger: Logger },
): OAuthAuthorizer | undefined {
  if (spec.oauth === undefined && options === undefined) return undefined;
  // A configured Authorization header (apiKey) is the server's credential; OAuth would replace it.
  if (Object.keys(spec.headers).some((name) => name.toLowerCase() === 'authorization')) return undefined;
  const settings = spec.oauth ?? { signingAlgorithm: 'RS256' };
  const provider = new SwitchboardOAuthProvider({
    server: spec.name,
    serverUrl: spec.url,
    settings,
    store: options?.store ?? new MemoryOAuthTokenStore(),
    storeKey: oauthStoreKey(spec.url, settings.clientId ?? settings.clientMetadataUrl),
    fetch: context.fetch,
    ...(options?.onAuthorizationUrl === undefined ? {} : { onAuthorizationUrl: options.onAuthorizationUrl }),
    ...(options?.redirectUrl === undefined ? {} : { redirectUrl: options.redirectUrl }),
    ...(options?.loginCommand === undefined ? {} : { loginCommand: options.loginCommand(spec.name) }),
  });
  return new OAuthAuthorizer({
    provider,
    serverUrl: spec.url,
    fetch: context.fetch,
    logger: context.logger,
    configured: spec.oauth !== undefined,
    ...(options?.maxAuthorizationsPerRequest === undefined ? {} : { maxAuthorizationsPerRequest: options.maxAuthorizationsPerRequest }),
  });
}

/**
 * @module gateway/auth
 * Who is asking: the `Authorization: Bearer <token>` of the request, checked against the registry's
 * API tokens (a hash lookup and a constant-time comparison, see the registry's token store). Every
 * `/mcp`, `/api` and `/metrics` request needs one, loopback included: a local web page or process
 * is not trusted for being local (the MCP Inspector RCE, CVE-2025-49596, was exactly that).
 */

import { ErrorCode, SwitchboardError } from '../errors.js';
import type { RegistryUser, ServerRegistry } from '../registry/index.js';
import type { TokenCache } from './token-cache.js';

/** The bearer token of a request, or undefined. `?token=` counts only when `allowQuery` is set (for `EventSource`, which cannot set headers). */
export function bearerTokenOf(request: Request, allowQuery = false): string | undefined {
  const header = request.headers.get('authorization');
  if (header !== null) {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
    return match?.[1];
  }
  if (!allowQuery) return undefined;
  const fromQuery = new URL(request.url).searchParams.get('token');
  return fromQuery === null || fromQuery === '' ? undefined : fromQuery;
}

/** Who a request comes from: the user, and the scopes of an OAuth access token (undefined: a static API token, which may do everything). */
export interface Caller {
  user: RegistryUser;
  scopes: readonly string[] | undefined;
}

/** Verifies tokens that are not the registry's API tokens (the gateway's OAuth access tokens). */
export interface AccessTokenVerifier {
  verify(token: string): Promise<{ user: RegistryUser; scopes: readonly string[]; expiresAt: number } | undefined>;
}

/** The user of a request; throws UNAUTHORIZED (401) without a valid token. */
export async function authenticate(registry: ServerRegistry, request: Request, options: { allowQueryToken?: boolean; cache?: TokenCache; oauth?: AccessTokenVerifier } = {}): Promise<RegistryUser> {
  return (await authenticateCaller(registry, request, options)).user;
}

/** As {@link authenticate}, with the token's scopes. */
export async function authenticateCaller(registry: ServerRegistry, request: Request, options: { allowQueryToken?: boolean; cache?: TokenCache; oauth?: AccessTokenVerifier } = {}): Promise<Caller> {
  const token = bearerTokenOf(request, options.allowQueryToken === true);
  if (token === undefined) {
    const malformed = request.headers.get('authorization') !== null;
    throw new SwitchboardError(ErrorCode.Unauthorized, malformed ? 'the Authorization header is not "Bearer <token>"' : 'an API token is required', {
      hint: 'send Authorization: Bearer <token> (the admin token is in .switchboard/token; `switchboard token create --user NAME` makes others)',
    });
  }
  const cached = options.cache?.lookup(token);
  if (cached !== undefined) return cached;
  // With the token's expiry, so the cache never outlives it.
  const verified = await registry.tokens.verifyWithExpiry(token);
  if (verified !== undefined) {
    options.cache?.set(token, verified.user, Date.now(), verified.expiresAt);
    return { user: verified.user, scopes: undefined };
  }
  const oauth = await options.oauth?.verify(token);
  if (oauth !== undefined) {
    options.cache?.set(token, oauth.user, Date.now(), oauth.expiresAt, oauth.scopes);
    return { user: oauth.user, scopes: oauth.scopes };
  }
  {
    throw new SwitchboardError(ErrorCode.Unauthorized, 'the API token is unknown, expired or revoked', { hint: 'create a new one with `switchboard token create --user NAME`' });
  }
}

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

/** The user of a request; throws UNAUTHORIZED (401) without a valid token. */
export async function authenticate(registry: ServerRegistry, request: Request, options: { allowQueryToken?: boolean; cache?: TokenCache } = {}): Promise<RegistryUser> {
  const token = bearerTokenOf(request, options.allowQueryToken === true);
  if (token === undefined) {
    const malformed = request.headers.get('authorization') !== null;
    throw new SwitchboardError(ErrorCode.Unauthorized, malformed ? 'the Authorization header is not "Bearer <token>"' : 'an API token is required', {
      hint: 'send Authorization: Bearer <token> (the admin token is in .switchboard/token; `switchboard token create --user NAME` makes others)',
    });
  }
  const cached = options.cache?.get(token);
  if (cached !== undefined) return cached;
  // With the token's expiry, so the cache never outlives it.
  const verified = await registry.tokens.verifyWithExpiry(token);
  if (verified !== undefined) options.cache?.set(token, verified.user, Date.now(), verified.expiresAt);
  const user = verified?.user;
  if (user === undefined) {
    throw new SwitchboardError(ErrorCode.Unauthorized, 'the API token is unknown, expired or revoked', { hint: 'create a new one with `switchboard token create --user NAME`' });
  }
  return user;
}

/**
 * @module gateway/auth
 * Who is asking: the `Authorization: Bearer <token>` of the request, checked against the registry's
 * API tokens (a hash lookup and a constant-time comparison, see the registry's token store). Every
 * `/mcp`, `/api` and `/metrics` request needs one, loopback included: a local web page or process
 * is not trusted for being local (the MCP Inspector RCE, CVE-2025-49596, was exactly that).
 * An OAuth access token bound to a DPoP key comes as `Authorization: DPoP <token>` with a proof of
 * that key on every request (see ./dpop-proof), never as a Bearer token.
 */

import { ErrorCode, SwitchboardError } from '../errors.js';
import type { RegistryUser, ServerRegistry } from '../registry/index.js';
import { checkDpopProof, proofError } from './dpop-proof.js';
import { HOP_HEADER } from './replica-hop.js';
import type { TokenCache } from './token-cache.js';

/** The token of a request's `Authorization` (`Bearer` or, for a DPoP-bound token, `DPoP`), with its scheme. */
export interface PresentedToken {
  token: string;
  scheme: 'bearer' | 'dpop';
}

/** The token of a request, or undefined. `?token=` counts only when `allowQuery` is set (for `EventSource`, which cannot set headers). */
export function presentedTokenOf(request: Request, allowQuery = false): PresentedToken | undefined {
  const header = request.headers.get('authorization');
  if (header !== null) {
    const match = /^(Bearer|DPoP)[ \t]+(\S+)[ \t]*$/i.exec(header);
    return match?.[2] === undefined ? undefined : { token: match[2], scheme: match[1]?.toLowerCase() === 'dpop' ? 'dpop' : 'bearer' };
  }
  if (!allowQuery) return undefined;
  const fromQuery = new URL(request.url).searchParams.get('token');
  return fromQuery === null || fromQuery === '' ? undefined : { token: fromQuery, scheme: 'bearer' };
}

/** The bearer token of a request, or undefined (see {@link presentedTokenOf}). */
export function bearerTokenOf(request: Request, allowQuery = false): string | undefined {
  return presentedTokenOf(request, allowQuery)?.token;
}

/** Who a request comes from: the user, and the scopes of an OAuth access token (undefined: a static API token, which may do everything). */
export interface Caller {
  user: RegistryUser;
  scopes: readonly string[] | undefined;
}

/** Verifies tokens that are not the registry's API tokens (the gateway's OAuth access tokens). */
export interface AccessTokenVerifier {
  /** `<public URL>/mcp`: its origin is what DPoP proofs name in `htu`. */
  readonly resource: string;
  /** The token's user, scopes, expiry and, for a DPoP-bound token, its key's thumbprint (`boundKey`). */
  verify(token: string): Promise<{ user: RegistryUser; scopes: readonly string[]; expiresAt: number; boundKey?: string } | undefined>;
  /** Records a DPoP proof's id as used (every replica sees it); false when it was used already. */
  claimProof(key: string, expiresInS: number): Promise<boolean>;
}

/** Options of {@link authenticateCaller}. */
export interface AuthenticateOptions {
  allowQueryToken?: boolean;
  cache?: TokenCache;
  oauth?: AccessTokenVerifier;
}

/** The user of a request; throws UNAUTHORIZED (401) without a valid token. */
export async function authenticate(registry: ServerRegistry, request: Request, options: AuthenticateOptions = {}): Promise<RegistryUser> {
  return (await authenticateCaller(registry, request, options)).user;
}

/** As {@link authenticate}, with the token's scopes. */
export async function authenticateCaller(registry: ServerRegistry, request: Request, options: AuthenticateOptions = {}): Promise<Caller> {
  const presented = presentedTokenOf(request, options.allowQueryToken === true);
  if (presented === undefined) {
    const malformed = request.headers.get('authorization') !== null;
    throw new SwitchboardError(ErrorCode.Unauthorized, malformed ? 'the Authorization header is not "Bearer <token>" (or "DPoP <token>")' : 'an API token is required', {
      hint: 'send Authorization: Bearer <token> (the admin token is in .switchboard/token; `switchboard token create --user NAME` makes others)',
    });
  }
  const { token } = presented;
  const cached = options.cache?.lookup(token);
  if (cached !== undefined) {
    const proof = checkBinding(request, presented, cached.boundKey, options.oauth);
    if (proof !== undefined) await proof;
    return cached;
  }
  // With the token's expiry, so the cache never outlives it.
  const verified = await registry.tokens.verifyWithExpiry(token);
  if (verified !== undefined) {
    checkBinding(request, presented, undefined, options.oauth); // no key: refuses DPoP at once, returns nothing
    options.cache?.set(token, verified.user, Date.now(), verified.expiresAt);
    return { user: verified.user, scopes: undefined };
  }
  const oauth = await options.oauth?.verify(token);
  if (oauth !== undefined) {
    const proof = checkBinding(request, presented, oauth.boundKey, options.oauth);
    if (proof !== undefined) await proof;
    options.cache?.set(token, oauth.user, Date.now(), oauth.expiresAt, oauth.scopes, oauth.boundKey);
    return { user: oauth.user, scopes: oauth.scopes };
  }
  {
    throw new SwitchboardError(ErrorCode.Unauthorized, 'the API token is unknown, expired or revoked', { hint: 'create a new one with `switchboard token create --user NAME`' });
  }
}

/**
 * A DPoP-bound token only with `DPoP` and a proof of its key; any other token only as `Bearer` (RFC 9449 §7.1).
 * Throws at once, or returns the proof's check to wait for; undefined (no promise on the common path) when
 * there is nothing to check.
 */
function checkBinding(request: Request, presented: PresentedToken, boundKey: string | undefined, oauth: AccessTokenVerifier | undefined): Promise<void> | undefined {
  if (boundKey === undefined) {
    if (presented.scheme === 'dpop') throw proofError('invalid_token', 'this token is not DPoP-bound', 'send it as Authorization: Bearer <token>');
    return undefined;
  }
  if (presented.scheme !== 'dpop' || oauth === undefined) throw proofError('invalid_token', 'this access token is bound to a DPoP key and was sent as a Bearer token');
  // A retry another replica forwarded here (issue 20): that replica checked the proof and used it up. The
  // MCP routes refuse the request before anything of the user is looked at unless its hop header verifies
  // for exactly this request and user (routes/mcp serveMcp).
  if (request.headers.has(HOP_HEADER) && isMcpPath(new URL(request.url).pathname)) return undefined;
  return checkDpopProof({
    proof: request.headers.get('dpop'),
    method: request.method,
    // The public URL (with a proxy's path prefix, `https://host/gw`) and this request's path, joined as text
    // (a path like `//host/…` must not name another origin).
    url: `${publicBase(oauth.resource)}${new URL(request.url).pathname}`,
    accessToken: presented.token,
    boundKey,
    claim: (key, expiresInS) => oauth.claimProof(key, expiresInS),
  });
}

/** The paths of the MCP routes, which check a hop header first (routes/mcp `serveMcp`). */
function isMcpPath(path: string): boolean {
  return path === '/mcp' || /^\/mcp\/e\/[^/]+$/.test(path);
}

/** The gateway's public URL from its resource (`<public URL>/mcp`): origin and any path a proxy serves it under. */
function publicBase(resource: string): string {
  return resource.endsWith('/mcp') ? resource.slice(0, -'/mcp'.length) : new URL(resource).origin;
}

/**
 * @module gateway/oauth-server/external-resource
 * The gateway as a pure resource server of an external authorization server (the admin's Keycloak,
 * Entra ID, Auth0…, `authorization:` in the config file): its JWT access tokens are verified with
 * `jose` against its JWKS — signature, `iss`, `aud` (the gateway's `/mcp` unless configured),
 * `exp`/`nbf` — and the user is the registry user named by a claim (`sub` unless configured). Users
 * are not created: an admin adds them (`switchboard users add NAME`). The gateway's token cache
 * remembers a verified token, so the signature is checked once per token and TTL, not per call.
 * A token with `cnf.jkt` is DPoP-bound: /mcp then wants its proofs (gateway/dpop-proof).
 */

import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { ExternalAuthorizationConfig } from '../../config/server-spec.js';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { RegistryUser, ServerRegistry } from '../../registry/index.js';
import { DPOP_PROOF_RECORD } from '../dpop-proof.js';
import { RecordSweeper } from './record-sweeper.js';
import { bearerChallenge, resourceMetadata, type ProtectedResource } from './protected-resource.js';

/** Algorithms accepted unless configured (no `none`, no HMAC: the gateway holds no shared secret). */
export const DEFAULT_EXTERNAL_ALGORITHMS = ['RS256', 'ES256', 'PS256', 'EdDSA'];

/** An external authorization server's tokens, verified. */
export class ExternalResource implements ProtectedResource {
  readonly resource: string;
  readonly #config: ExternalAuthorizationConfig;
  readonly #audience: string;
  readonly #keys: ReturnType<typeof createRemoteJWKSet>;
  readonly #registry: ServerRegistry;
  readonly #logger: Logger;
  /** Used DPoP proofs are records too: they expire and are swept. */
  readonly #sweeper: RecordSweeper;

  private constructor(resource: string, config: ExternalAuthorizationConfig, jwksUri: string, registry: ServerRegistry, logger: Logger) {
    this.resource = resource;
    this.#config = config;
    this.#audience = config.audience ?? resource;
    this.#keys = createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: 5_000, cooldownDuration: 30_000 });
    this.#registry = registry;
    this.#logger = logger;
    this.#sweeper = new RecordSweeper(registry.oauthServer, logger);
  }

  /** Resolves the JWKS (from the config, else the issuer's discovery document). */
  static async create(registry: ServerRegistry, config: ExternalAuthorizationConfig, publicUrl: string, logger: Logger): Promise<ExternalResource> {
    const resource = `${publicUrl.replace(/\/+$/, '')}/mcp`;
    const jwksUri = config.jwksUri ?? (await discoverJwksUri(config.issuer));
    return new ExternalResource(resource, config, jwksUri, registry, logger);
  }

  protectedResourceMetadata(): Record<string, unknown> {
    return resourceMetadata(this.resource, this.#config.issuer);
  }

  challenge(error?: { error: string; scope: string }): string {
    return bearerChallenge(this.resource, error);
  }

  async verify(token: string): Promise<{ user: RegistryUser; scopes: string[]; expiresAt: number; boundKey?: string } | undefined> {
    if (token.split('.').length !== 3) return undefined;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.#keys, { issuer: this.#config.issuer, audience: this.#audience, algorithms: this.#config.algorithms ?? DEFAULT_EXTERNAL_ALGORITHMS, requiredClaims: ['exp'] }));
    } catch (error) {
      // The reason (expired, wrong audience…), never the token.
      this.#logger.info('an external access token was refused', { reason: error instanceof Error ? ((error as { code?: string }).code ?? error.name) : 'unknown' });
      return undefined;
    }
    const claim = this.#config.userClaim ?? 'sub';
    const name = payload[claim];
    if (typeof name !== 'string' || name === '') return undefined;
    const user = await this.#registry.users.find(name);
    if (user === undefined) {
      this.#logger.warn('an external access token names no registry user', { claim, user: name });
      return undefined;
    }
    const binding = bindingOf(payload);
    if (binding === undefined) {
      // Taken as a bearer token, a token bound to a TLS certificate (RFC 8705) or anything else would work for whoever stole it.
      this.#logger.info('an external access token was refused: it is bound in a way this gateway does not check (only cnf.jkt, DPoP)', { cnf: Object.keys(payload.cnf ?? {}) });
      return undefined;
    }
    return { user, scopes: scopesOf(payload), expiresAt: (payload.exp ?? 0) * 1000, ...binding };
  }

  claimProof(key: string, expiresInS: number): Promise<boolean> {
    return this.#registry.oauthServer.claimOnce(DPOP_PROOF_RECORD, key, expiresInS);
  }

  close(): Promise<void> {
    return this.#sweeper.close();
  }
}

/**
 * A token's binding (RFC 7800 `cnf`): none (`{}`), a DPoP key's thumbprint (`cnf.jkt`, RFC 9449 §6.1), or
 * undefined for a binding this gateway cannot check — such a token is refused, not served as a bearer one.
 */
function bindingOf(payload: JWTPayload): { boundKey?: string } | undefined {
  const confirmation = payload.cnf;
  if (confirmation === undefined) return {};
  const jkt = confirmation !== null && typeof confirmation === 'object' ? (confirmation as { jkt?: unknown }).jkt : undefined;
  return typeof jkt === 'string' && jkt !== '' ? { boundKey: jkt } : undefined;
}

/** `scope` (space-separated, RFC 9068) or `scp` (an array, as Entra ID sends). */
function scopesOf(payload: JWTPayload): string[] {
  if (typeof payload.scope === 'string') return payload.scope.split(' ').filter((scope) => scope !== '');
  if (Array.isArray(payload.scp)) return payload.scp.filter((scope): scope is string => typeof scope === 'string');
  if (typeof payload.scp === 'string') return payload.scp.split(' ').filter((scope) => scope !== '');
  return [];
}

async function discoverJwksUri(issuer: string): Promise<string> {
  const base = issuer.replace(/\/+$/, '');
  for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
    try {
      const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(5_000), headers: { accept: 'application/json' } });
      if (!response.ok) continue;
      const metadata = (await response.json()) as { jwks_uri?: unknown; issuer?: unknown };
      if (metadata.issuer === issuer && typeof metadata.jwks_uri === 'string') return metadata.jwks_uri;
    } catch {
      // Try the other document, then fail below.
    }
  }
  throw new SwitchboardError(ErrorCode.ConfigInvalid, `authorization.issuer ${issuer}: no discovery document names its jwks_uri`, { hint: 'set authorization.jwksUri in the config file' });
}

/**
 * @module gateway/oauth-server/oauth-server
 * The gateway's own OAuth 2.1 authorization server for its MCP clients (issue 18), built on
 * `oidc-provider` (panva's certified OpenID provider: dynamic registration, client ID metadata
 * documents, PKCE, resource indicators and refresh-token rotation are its features, not our code).
 * What it is configured to be:
 * - authorization code + PKCE S256 only, public clients (`token_endpoint_auth_method: none`);
 * - `resource` (RFC 8707) required at the authorization endpoint, and only this gateway's `/mcp` is a
 *   resource: a token is bound to it, and one made for another gateway is refused here;
 * - access tokens are OPAQUE and stored hashed: revoking a client or removing a user ends its tokens at
 *   once (a self-contained JWT would stay valid until it expires), and verifying one is a single keyed
 *   read, remembered by the gateway's token cache — never a query or a signature check per call;
 * - refresh tokens rotate on every use; a reused one revokes the whole grant (reuse detection);
 * - everything is stored in the registry (SQLite or PostgreSQL), codes and tokens only as hashes.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { generateKeyPair, exportJWK } from 'jose';
import { randomBytes } from 'node:crypto';
import type { Provider, KoaContextLike } from 'oidc-provider';
import { loadOidcProvider, runtimeNotice } from './load-oidc-provider.js';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { createPinnedFetch, type PinnedFetch, type ServerRegistry, type RegistryUser } from '../../registry/index.js';
import { registryAdapterFactory } from './registry-adapter.js';
import { checkRedirectUris, type RedirectPolicy } from './redirect-policy.js';
import { MCP_SCOPES } from './mcp-scope-names.js';
import { builtInClients, CLI_CLIENT_ID, CLI_CLIENT_METADATA } from './preregistered-clients.js';
import { IdentityProviderLogin, type IdentityProviderOptions } from './identity-provider.js';
import { DPOP_PROOF_RECORD } from '../dpop-proof.js';
import { RecordSweeper } from './record-sweeper.js';
import { bearerChallenge, resourceMetadata, resourceMetadataUrl, type ProtectedResource } from './protected-resource.js';

export { MCP_SCOPES } from './mcp-scope-names.js';
/** Access-token lifetime. @default 600 s */
export const DEFAULT_ACCESS_TOKEN_TTL_S = 600;
/** Refresh-token lifetime (each use makes a new one). @default 14 days */
export const DEFAULT_REFRESH_TOKEN_TTL_S = 14 * 24 * 3600;
/** Dynamic registrations accepted per hour. @default 100 */
export const DEFAULT_REGISTRATIONS_PER_HOUR = 100;
/** A dynamically registered client nobody authorizes for this long is forgotten. @default 30 days */
export const DEFAULT_UNUSED_CLIENT_TTL_MS = 30 * 24 * 3600 * 1000;
/** Where the authorization server's endpoints live. */
export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  jwks: '/oauth/jwks',
  revocation: '/oauth/revoke',
  end_session: '/oauth/logout',
  userinfo: '/oauth/userinfo',
} as const;
/** The login and consent pages (ours, not oidc-provider's). */
export const INTERACTION_PATH = '/oauth/consent';

/** Options of {@link OAuthServer.create}. */
export interface OAuthServerOptions {
  /** The gateway's public base URL (`https://mcp.example.com`): the issuer; `/mcp` under it is the resource. */
  issuer: string;
  /** Dynamic client registration (RFC 7591). @default enabled, any https or loopback redirect */
  registration?: { enabled?: boolean; perHour?: number; unusedClientTtlMs?: number } & RedirectPolicy;
  /** Client ID metadata documents (an https URL as `client_id`), fetched through the SSRF-safe fetch. @default true */
  clientMetadataDocuments?: boolean;
  /** Addresses the metadata-document fetch may reach besides public ones (`loopback`, a CIDR…). @default none */
  allowAddresses?: string[];
  /** Certificate authorities (PEM) the metadata-document fetch trusts besides the system's. */
  clientMetadataCa?: string;
  /** @default DEFAULT_ACCESS_TOKEN_TTL_S */
  accessTokenTtlS?: number;
  /** @default DEFAULT_REFRESH_TOKEN_TTL_S */
  refreshTokenTtlS?: number;
  /** Sign-in through the admin's OpenID provider, beside the gateway-token field. */
  identityProvider?: IdentityProviderOptions;
  logger: Logger;
}

/** Where the identity provider sends the browser back. */
export const IDP_CALLBACK_PATH = '/oauth/idp/callback';

/** What a verified access token says. */
export interface VerifiedAccessToken {
  user: RegistryUser;
  scopes: string[];
  clientId: string;
  /** ms since the epoch. */
  expiresAt: number;
  /** The thumbprint of the DPoP key the token is bound to (`cnf.jkt`), if it is. */
  boundKey?: string;
}

interface StoredKeys {
  signing: Record<string, unknown>;
  cookies: string[];
}

/** The authorization server; {@link handle} serves its endpoints. */
export class OAuthServer implements ProtectedResource {
  readonly issuer: string;
  /** The protected resource: `${issuer}/mcp`. */
  readonly resource: string;
  readonly provider: Provider;
  /** Sign-in through the admin's OpenID provider, when configured. */
  readonly identityProvider: IdentityProviderLogin | undefined;
  readonly #registry: ServerRegistry;
  readonly #fetch: PinnedFetch;
  readonly #sweeper: RecordSweeper;
  readonly #callback: (req: IncomingMessage, res: ServerResponse) => void;

  private constructor(issuer: string, provider: Provider, registry: ServerRegistry, fetch: PinnedFetch, identityProvider: IdentityProviderLogin | undefined, logger: Logger) {
    this.issuer = issuer;
    this.identityProvider = identityProvider;
    this.resource = `${issuer}/mcp`;
    this.provider = provider;
    this.#registry = registry;
    this.#fetch = fetch;
    this.#sweeper = new RecordSweeper(registry.oauthServer, logger);
    this.#callback = provider.callback();
  }

  /** Builds the server over `registry` (its keys are made and stored on first use). */
  static async create(registry: ServerRegistry, options: OAuthServerOptions): Promise<OAuthServer> {
    const issuer = issuerOf(options.issuer);
    const resource = `${issuer}/mcp`;
    const keys = await registry.oauthServer.keys<StoredKeys>(async () => {
      const { privateKey } = await generateKeyPair('ES256', { extractable: true });
      return { signing: { ...(await exportJWK(privateKey)), alg: 'ES256', use: 'sig', kid: randomBytes(8).toString('hex') }, cookies: [randomBytes(32).toString('base64url')] };
    });
    const fetch = await createPinnedFetch({ policy: { allowHttpHosts: [], allowAddresses: options.allowAddresses ?? [] }, maxRedirects: 0, subject: 'a client ID metadata document', logger: options.logger, ...(options.clientMetadataCa === undefined ? {} : { ca: options.clientMetadataCa }) });
    const registration = options.registration ?? {};
    const unusedClientTtlMs = registration.unusedClientTtlMs ?? DEFAULT_UNUSED_CLIENT_TTL_MS;
    const { Provider, errors } = await loadOidcProvider();
    const notice = runtimeNotice();
    if (notice !== undefined) options.logger.debug(notice);
    const provider = new Provider(issuer, {
      adapter: registryAdapterFactory(registry.oauthServer, { unusedClientTtlMs }),
      findAccount: async (_ctx: unknown, id: string) => {
        const user = await registry.users.find({ id });
        return user === undefined ? undefined : { accountId: user.id, claims: () => ({ sub: user.id, name: user.name, preferred_username: user.name }) };
      },
      jwks: { keys: [keys.signing] },
      // The CLI and the dashboard need no registration; the CLI finds its id in the metadata.
      clients: builtInClients(issuer),
      discovery: { [CLI_CLIENT_METADATA]: CLI_CLIENT_ID },
      cookies: { keys: keys.cookies, names: { session: 'sb_oauth_session', interaction: 'sb_oauth_interaction', resume: 'sb_oauth_resume', state: 'sb_oauth_state' } },
      scopes: ['openid', 'offline_access', ...MCP_SCOPES],
      claims: { openid: ['sub'], profile: ['name', 'preferred_username'] },
      responseTypes: ['code'],
      pkce: { required: () => true },
      routes: OAUTH_ROUTES,
      clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', id_token_signed_response_alg: 'ES256' },
      // Refresh tokens for every client that may refresh (MCP clients rarely ask for offline_access), rotated on each use.
      issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) => client.grantTypeAllowed('refresh_token'),
      rotateRefreshToken: true,
      expiresWithSession: () => false,
      ttl: {
        AccessToken: options.accessTokenTtlS ?? DEFAULT_ACCESS_TOKEN_TTL_S,
        AuthorizationCode: 60,
        RefreshToken: options.refreshTokenTtlS ?? DEFAULT_REFRESH_TOKEN_TTL_S,
        Grant: options.refreshTokenTtlS ?? DEFAULT_REFRESH_TOKEN_TTL_S,
        IdToken: 3600,
        Interaction: 600,
        Session: 14 * 24 * 3600,
      },
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${INTERACTION_PATH}/${interaction.uid}` },
      extraClientMetadata: {
        // Not a metadata field of its own: a hook that sees every client's redirect URIs at registration.
        properties: ['switchboard_checked', 'switchboard_preregistered'],
        validator: (ctx: KoaContextLike | undefined, key: string, _value: unknown, metadata: { redirect_uris?: unknown }) => {
          if (key !== 'switchboard_checked' || ctx?.oidc?.route !== 'registration') return;
          const problem = checkRedirectUris(metadata.redirect_uris, registration);
          if (problem !== undefined) throw new errors.InvalidClientMetadata(problem);
        },
      },
      features: {
        devInteractions: { enabled: false },
        registration: { enabled: registration.enabled !== false },
        revocation: { enabled: true },
        // DPoP-bound tokens for the clients that send a proof (RFC 9449); /mcp checks their proofs (gateway/dpop-proof).
        // No nonces: a nonce secret would have to be shared by every replica, and the proof's jti is used once anyway.
        dPoP: { enabled: true, allowReplay: false },
        clientIdMetadataDocument: {
          enabled: options.clientMetadataDocuments !== false,
          ack: 'draft-02',
          // A document names its own redirect URIs: the same policy as registration (http only on loopback, the admin's hosts).
          allowClient: (_ctx: unknown, client: { redirectUris?: unknown }) => {
            const problem = checkRedirectUris(client.redirectUris, registration);
            if (problem !== undefined) throw new errors.InvalidClientMetadata(`client_id metadata document: ${problem}`);
            return true;
          },
        },
        resourceIndicators: {
          enabled: true,
          defaultResource: (ctx: KoaContextLike) => {
            if (ctx.oidc?.route === 'authorization') throw new errors.InvalidTarget(`the resource parameter is required (RFC 8707); this gateway's resource is ${resource}`);
            return undefined;
          },
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx: unknown, indicator: string) => {
            if (indicator !== resource) throw new errors.InvalidTarget(`this authorization server issues tokens only for ${resource}`);
            return { scope: MCP_SCOPES.join(' '), audience: resource, accessTokenFormat: 'opaque', accessTokenTTL: options.accessTokenTtlS ?? DEFAULT_ACCESS_TOKEN_TTL_S };
          },
        },
      },
      fetch: (url: string, init: RequestInit) => fetch.fetch(url, init),
      fetchResponseBodyLimits: { 'client_id metadata document': 5 * 1024 },
      renderError: (ctx: KoaContextLike, out: { error?: string; error_description?: string }) => {
        ctx.set('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
        ctx.body = errorPage(out.error ?? 'error', out.error_description ?? 'the request failed');
      },
    });
    // An https issuer is served behind a TLS-terminating proxy: trust its X-Forwarded-Proto for the secure cookies.
    provider.proxy = issuer.startsWith('https:');
    const perHour = registration.perHour ?? DEFAULT_REGISTRATIONS_PER_HOUR;
    provider.use(async (ctx, next) => {
      if (ctx.method === 'POST' && ctx.path === OAUTH_ROUTES.registration && (await registry.oauthServer.countClientsSince(new Date(Date.now() - 3600_000))) >= perHour) {
        ctx.status = 429;
        ctx.body = { error: 'temporarily_unavailable', error_description: `more than ${perHour} clients registered in the last hour; try again later` };
        return;
      }
      await next();
    });
    provider.on('server_error', (_ctx: unknown, error: unknown) => options.logger.error('the OAuth server failed', { error: error instanceof Error ? error.message : String(error) }));
    const identityProvider = options.identityProvider === undefined ? undefined : new IdentityProviderLogin(options.identityProvider, `${issuer}${IDP_CALLBACK_PATH}`, registry, options.logger);
    return new OAuthServer(issuer, provider, registry, fetch, identityProvider, options.logger);
  }

  /** Serves an authorization-server request (the Node request and response of the gateway's HTTP server). */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    return new Promise((resolve) => {
      res.once('close', () => resolve());
      this.#callback(req, res);
    });
  }

  /** RFC 9728 protected resource metadata of `/mcp`. */
  protectedResourceMetadata(): Record<string, unknown> {
    return resourceMetadata(this.resource, this.issuer);
  }

  /** Where the metadata is (the `resource_metadata` of a challenge). */
  get resourceMetadataUrl(): string {
    return resourceMetadataUrl(this.resource);
  }

  /** The `WWW-Authenticate` value of a 401 (or, with `error`, a 403 insufficient_scope). */
  challenge(error?: { error: string; scope: string }): string {
    return bearerChallenge(this.resource, error);
  }

  /**
   * The user and scopes of an access token made here for this gateway's `/mcp`, or undefined (unknown,
   * expired, revoked, or made for another resource).
   */
  async verify(token: string): Promise<VerifiedAccessToken | undefined> {
    if (token.length > 512) return undefined;
    const found = await this.provider.AccessToken.find(token);
    if (found === undefined || found.isExpired || found.exp === undefined) return undefined;
    const audiences = Array.isArray(found.aud) ? found.aud : found.aud === undefined ? [] : [found.aud];
    if (!audiences.includes(this.resource)) return undefined;
    const user = await this.#registry.users.find({ id: found.accountId });
    if (user === undefined) return undefined;
    const scopes = (found.scope ?? '').split(' ').filter((scope) => scope !== '');
    return { user, scopes, clientId: found.clientId, expiresAt: found.exp * 1000, ...(typeof found.jkt === 'string' ? { boundKey: found.jkt } : {}) };
  }

  claimProof(key: string, expiresInS: number): Promise<boolean> {
    return this.#registry.oauthServer.claimOnce(DPOP_PROOF_RECORD, key, expiresInS);
  }

  /** Stops the expired-record sweep; closes the metadata-document fetch's connections. */
  async close(): Promise<void> {
    await this.#sweeper.close();
    await this.#fetch.close();
  }
}

/** The issuer: an absolute http(s) URL without a trailing slash, query or fragment. */
function issuerOf(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SwitchboardError(ErrorCode.InvalidArgument, `the OAuth issuer "${url}" is not a URL`, { hint: 'give the gateway\'s public address, e.g. --public-url https://mcp.example.com' });
  }
  if ((parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.search !== '' || parsed.hash !== '') {
    throw new SwitchboardError(ErrorCode.InvalidArgument, `the OAuth issuer "${url}" must be an http(s) URL without query or fragment`);
  }
  return parsed.href.replace(/\/+$/, '');
}

function errorPage(error: string, description: string): string {
  const escape = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorization failed — Switchboard</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem}</style></head><body><main><h1>Authorization failed</h1><p><code>${escape(error)}</code>: ${escape(description)}</p></main></body></html>`;
}

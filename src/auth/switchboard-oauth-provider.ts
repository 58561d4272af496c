/**
 * @module auth/switchboard-oauth-provider
 * The SDK's `OAuthClientProvider` for one server, backed by an {@link OAuthTokenStore}. The SDK's
 * `auth()` does the protocol (discovery fallbacks, registration, PKCE, `resource`, scopes, token
 * endpoint auth method); this class answers its questions from the settings and the stored record,
 * and supplies the grants it leaves to providers: `client_credentials` (secret or `private_key_jwt`)
 * and `jwt-bearer` (enterprise-managed authorization, SEP-990, or a workload's own JWT, SEP-1933).
 */

import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  createPrivateKeyJwtAuth,
  discoverAndRequestJwtAuthGrant,
  requestJwtAuthorizationGrant,
  type AddClientAuthentication,
  type AuthorizationServerMetadata,
  type FetchLike,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { OAuthGrant, OAuthSettings } from '../config/oauth-settings.js';
import { ErrorCode, SwitchboardError } from '../errors.js';
import { VERSION } from '../version.js';
import { parseAuthorizationCallback, type AuthorizationCallback, type AuthorizationUrlHandler } from './authorization-callback.js';
import type { OAuthRecord, OAuthTokenStore } from './oauth-token-store.js';
import { workloadAssertion } from './workload-assertion.js';
import { DpopKeys } from './dpop-keys.js';
import type { DpopSession } from '@modelcontextprotocol/client';

const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** The redirect URI used when none is given: loopback, any port (RFC 8252 §7.3). */
export const DEFAULT_REDIRECT_URL = 'http://127.0.0.1/callback';

/** Options of {@link SwitchboardOAuthProvider}. */
export interface SwitchboardOAuthProviderOptions {
  server: string;
  serverUrl: string;
  settings: OAuthSettings;
  store: OAuthTokenStore;
  storeKey: string;
  /** Completes the authorization-code step; without it, that grant can only use stored tokens. */
  onAuthorizationUrl?: AuthorizationUrlHandler;
  /** @default `http://127.0.0.1:<redirectPort>/callback`, else {@link DEFAULT_REDIRECT_URL} */
  redirectUrl?: string;
  /** For requests to an identity provider (`jwt-bearer`). */
  fetch: FetchLike;
  /** The command that logs in, for the hint of a connection that needs a login. @default `switchboard login <server>` */
  loginCommand?: string;
}

/** One server's OAuth client. Loads its record once and writes every change through. */
export class SwitchboardOAuthProvider implements OAuthClientProvider {
  readonly server: string;
  readonly settings: OAuthSettings;
  /** The command that logs in to this server (hints); undefined for `switchboard login <server>`. */
  readonly loginCommand: string | undefined;
  readonly #options: SwitchboardOAuthProviderOptions;
  readonly #redirectUrl: string;
  #grant: OAuthGrant;
  #record: OAuthRecord | undefined;
  #expectedState: string | undefined;
  #callback: AuthorizationCallback | undefined;
  #signal: AbortSignal | undefined;
  #authorizationServerUrl: string | undefined;
  #resourceUrl: string | undefined;
  #privateKey: Promise<string> | undefined;
  readonly #dpop = new DpopKeys(() => this.record(), (key) => this.#update((record) => (record.dpopKey = key)));

  constructor(options: SwitchboardOAuthProviderOptions) {
    this.#options = options;
    this.server = options.server;
    this.loginCommand = options.loginCommand;
    this.settings = options.settings;
    this.#grant = options.settings.grant ?? 'authorization_code';
    const port = options.settings.redirectPort;
    this.#redirectUrl = options.redirectUrl ?? (port === undefined ? DEFAULT_REDIRECT_URL : `http://127.0.0.1:${port}/callback`);
  }

  /** The grant in use (may change once, from auto-selection, see {@link selectGrant}). */
  get grant(): OAuthGrant {
    return this.#grant;
  }

  /**
   * A Switchboard gateway names the client id of its CLI in its metadata (`switchboard_cli_client_id`,
   * a pre-registered public client with loopback redirects): a person's login without a configured
   * client then uses it instead of registering one. Kept like a registration, so a refresh finds it.
   */
  async usePreregisteredClient(metadata: AuthorizationServerMetadata | undefined): Promise<void> {
    const id = (metadata as Record<string, unknown> | undefined)?.switchboard_cli_client_id;
    if (typeof id !== 'string' || id === '' || this.#grant !== 'authorization_code' || this.settings.clientId !== undefined || this.settings.clientMetadataUrl !== undefined) return;
    // That client redirects only to a loopback /callback (the CLI's); a gateway's own /oauth/callback registers instead.
    const redirect = new URL(this.#redirectUrl);
    if (redirect.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(redirect.hostname) || redirect.pathname !== '/callback') return;
    // Stamped with its issuer, as the SDK keeps registrations (SEP-2352); unstamped, it warns on every read.
    const issuer = metadata?.issuer;
    const stored = (await this.record()).clientInformation;
    if (stored?.client_id === id && stored.issuer === issuer) return;
    await this.#update((record) => (record.clientInformation = { client_id: id, ...(issuer === undefined ? {} : { issuer }) }));
  }

  /** True when the grant presents a workload's own JWT (`assertion` or `assertionFile`) rather than an ID-JAG. */
  get presentsWorkloadJwt(): boolean {
    return this.#grant === 'jwt-bearer' && (this.settings.assertion !== undefined || this.settings.assertionFile !== undefined);
  }

  /** True when the authorization-code step can run here (a handler was given). */
  get canAuthorizeInteractively(): boolean {
    return this.#options.onAuthorizationUrl !== undefined;
  }

  /**
   * Picks the grant when the settings leave it open: a configured secret or key with an authorization
   * server that offers `client_credentials` but not `authorization_code` means machine-to-machine.
   */
  selectGrant(metadata: AuthorizationServerMetadata | undefined): void {
    if (this.settings.grant !== undefined) return;
    const hasCredentials = this.settings.clientSecret !== undefined || this.settings.privateKey !== undefined || this.settings.privateKeyFile !== undefined;
    const grants = metadata?.grant_types_supported;
    if (hasCredentials && grants !== undefined && grants.includes('client_credentials') && !grants.includes('authorization_code')) {
      this.#grant = 'client_credentials';
    } else {
      this.#grant = 'authorization_code';
    }
  }

  /** The abort signal handed to the authorization handler (the current request's). */
  useSignal(signal: AbortSignal | undefined): void {
    this.#signal = signal;
  }

  /** Takes the redirect captured by {@link redirectToAuthorization}, once. */
  takeAuthorizationCallback(): AuthorizationCallback | undefined {
    const callback = this.#callback;
    this.#callback = undefined;
    return callback;
  }

  /** The stored record (loaded on first use). */
  async record(): Promise<OAuthRecord> {
    this.#record ??= (await this.#options.store.get(this.#options.storeKey)) ?? {};
    return this.#record;
  }

  /** Drops the cached record and reads the store again (another process may have logged in). */
  async reload(): Promise<OAuthRecord> {
    this.#record = undefined;
    return this.record();
  }

  async #update(change: (record: OAuthRecord) => void): Promise<void> {
    const record = { ...(await this.record()) };
    change(record);
    this.#record = record;
    await this.#options.store.save(this.#options.storeKey, record);
  }

  // --- OAuthClientProvider ---------------------------------------------------------------------

  get redirectUrl(): string | undefined {
    return this.#grant === 'authorization_code' ? this.#redirectUrl : undefined;
  }

  get clientMetadataUrl(): string | undefined {
    return this.#grant === 'authorization_code' ? this.settings.clientMetadataUrl : undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.settings.scopes?.join(' ');
    const base = {
      client_name: this.settings.clientName ?? 'mcp-switchboard',
      software_id: 'mcp-switchboard',
      software_version: VERSION,
      ...(scope === undefined ? {} : { scope }),
    };
    switch (this.#grant) {
      case 'authorization_code':
        // refresh_token here is what lets the SDK ask for offline_access when the server offers it.
        return { ...base, redirect_uris: [this.#redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] };
      case 'client_credentials':
        return { ...base, redirect_uris: [], grant_types: ['client_credentials'], token_endpoint_auth_method: this.#hasPrivateKey() ? 'private_key_jwt' : 'client_secret_basic' };
      case 'jwt-bearer':
        // A workload presenting its own JWT is a public client; an ID-JAG comes with the client's secret.
        return { ...base, redirect_uris: [], grant_types: [JWT_BEARER_GRANT], token_endpoint_auth_method: this.settings.clientSecret === undefined ? 'none' : 'client_secret_basic' };
    }
  }

  state(): string {
    this.#expectedState = randomBytes(24).toString('base64url');
    return this.#expectedState;
  }

  async clientInformation(context?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    const { clientId, clientSecret } = this.settings;
    // A configured client belongs to whichever authorization server the server names: stamp it with
    // the issuer being asked about (the SDK binds credentials to issuers, SEP-2352).
    if (clientId !== undefined) {
      return { client_id: clientId, ...(clientSecret === undefined ? {} : { client_secret: clientSecret }), ...(context === undefined ? {} : { issuer: context.issuer }) };
    }
    const stored = (await this.record()).clientInformation;
    if (stored === undefined) return undefined;
    if (this.settings.clientMetadataUrl !== undefined && stored.client_id !== this.settings.clientMetadataUrl && stored.client_id.startsWith('https://')) return undefined;
    // A registration for another redirect URI cannot complete a login here; register again.
    const registered = (stored as { redirect_uris?: unknown }).redirect_uris;
    if (this.#grant === 'authorization_code' && Array.isArray(registered) && registered.length > 0 && !registered.some((uri) => sameRedirect(String(uri), this.#redirectUrl))) {
      return undefined;
    }
    return stored;
  }

  async saveClientInformation(clientInformation: StoredOAuthClientInformation): Promise<void> {
    if (this.settings.clientId !== undefined) return;
    await this.#update((record) => (record.clientInformation = clientInformation));
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    return (await this.record()).tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    await this.#update((record) => {
      record.tokens = tokens;
      record.tokensObtainedAt = Date.now();
      delete record.codeVerifier;
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const handler = this.#options.onAuthorizationUrl;
    if (handler === undefined) throw loginRequired(this.server, this.#options.loginCommand);
    if (authorizationUrl.protocol !== 'https:' && authorizationUrl.protocol !== 'http:') {
      throw new SwitchboardError(ErrorCode.ServerUnauthorized, `server "${this.server}": the authorization endpoint is not an http(s) URL`, {
        server: this.server,
        reason: 'the authorization endpoint is not an http(s) URL',
        details: { reason: 'bad-authorization-endpoint' },
      });
    }
    const returned = await handler(authorizationUrl, { server: this.server, redirectUrl: this.#redirectUrl, signal: this.#signal });
    this.#callback = parseAuthorizationCallback(returned, this.#expectedState, this.server);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.#update((record) => (record.codeVerifier = codeVerifier));
  }

  async codeVerifier(): Promise<string> {
    const verifier = (await this.record()).codeVerifier;
    if (verifier === undefined) throw loginRequired(this.server, this.#options.loginCommand);
    return verifier;
  }

  get addClientAuthentication(): AddClientAuthentication | undefined {
    if (this.#grant !== 'client_credentials' || !this.#hasPrivateKey()) return undefined;
    const clientId = this.settings.clientId ?? '';
    return async (headers, params, url, metadata) => {
      const privateKey = await this.#loadPrivateKey();
      const sign = createPrivateKeyJwtAuth({ issuer: clientId, subject: clientId, privateKey, alg: this.settings.signingAlgorithm });
      await sign(headers, params, url, metadata);
    };
  }

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    if (this.#grant === 'client_credentials') {
      const params = new URLSearchParams({ grant_type: 'client_credentials' });
      if (scope !== undefined && scope !== '') params.set('scope', scope);
      return params;
    }
    if (this.#grant === 'jwt-bearer') {
      const assertion = (await workloadAssertion(this.server, this.settings)) ?? (await this.#requestIdJag(scope));
      const params = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion });
      if (scope !== undefined && scope !== '') params.set('scope', scope);
      return params;
    }
    // authorization_code: the SDK's default request (code, code_verifier, redirect_uri).
    return undefined;
  }

  /** DPoP (RFC 9449) when the authorization server offers it: proofs at its token endpoint, DPoP-bound tokens. */
  dpop(): Promise<DpopSession | undefined> {
    return this.#dpop.session();
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all') this.#dpop.forget();
    await this.#update((record) => {
      if (scope === 'all') delete record.dpopKey;
      if (scope === 'all' || scope === 'client') delete record.clientInformation;
      if (scope === 'all' || scope === 'tokens') {
        delete record.tokens;
        delete record.tokensObtainedAt;
      }
      if (scope === 'all' || scope === 'verifier') delete record.codeVerifier;
      if (scope === 'all' || scope === 'discovery') delete record.discoveryState;
    });
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.#update((record) => (record.discoveryState = state));
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.record()).discoveryState;
  }

  saveAuthorizationServerUrl(authorizationServerUrl: string): void {
    this.#authorizationServerUrl = authorizationServerUrl;
  }

  saveResourceUrl(resourceUrl: string): void {
    this.#resourceUrl = resourceUrl;
  }

  resourceUrl(): string | undefined {
    return this.#resourceUrl;
  }

  // --- helpers ---------------------------------------------------------------------------------

  #hasPrivateKey(): boolean {
    return this.settings.privateKey !== undefined || this.settings.privateKeyFile !== undefined;
  }

  #loadPrivateKey(): Promise<string> {
    const { privateKey, privateKeyFile } = this.settings;
    if (privateKey !== undefined) return Promise.resolve(privateKey);
    this.#privateKey ??= readFile(privateKeyFile ?? '', 'utf8').catch((error: unknown) => {
      this.#privateKey = undefined;
      const reason = `cannot read the private key file ${privateKeyFile}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
      throw new SwitchboardError(ErrorCode.ConfigInvalid, `server "${this.server}": ${reason}`, {
        server: this.server,
        // The connection shows it after its own "server … failed to start:".
        reason,
        cause: error,
      });
    });
    return this.#privateKey;
  }

  /** SEP-990: exchanges the IdP's ID token for an ID-JAG aimed at this server's authorization server. */
  async #requestIdJag(scope: string | undefined): Promise<string> {
    const idp = this.settings.idp;
    const audience = this.#authorizationServerUrl;
    const resource = this.#resourceUrl;
    if (idp === undefined || audience === undefined || resource === undefined) {
      throw new SwitchboardError(ErrorCode.ServerUnauthorized, `server "${this.server}": enterprise-managed authorization needs the server's protected resource metadata, which it does not publish`, {
        server: this.server,
        reason: "enterprise-managed authorization needs the server's protected resource metadata, which it does not publish",
        details: { reason: 'jwt-bearer-unavailable' },
      });
    }
    const common = {
      audience,
      resource,
      idToken: idp.idToken,
      clientId: idp.clientId,
      ...(idp.clientSecret === undefined ? {} : { clientSecret: idp.clientSecret }),
      ...(scope === undefined || scope === '' ? {} : { scope }),
      fetchFn: this.#options.fetch,
    };
    const result =
      idp.tokenEndpoint !== undefined
        ? await requestJwtAuthorizationGrant({ ...common, tokenEndpoint: idp.tokenEndpoint })
        : await discoverAndRequestJwtAuthGrant({ ...common, idpUrl: idp.url ?? '' });
    return result.jwtAuthGrant;
  }
}

/** The error of a connection that needs a person to log in first. */
export function loginRequired(server: string, loginCommand = `switchboard login ${server}`): SwitchboardError {
  return new SwitchboardError(ErrorCode.ServerUnauthorized, `server "${server}" requires you to log in (OAuth)`, {
    server,
    reason: 'requires you to log in (OAuth)',
    hint: `run: ${loginCommand}`,
    details: { status: 401, reason: 'login-required' },
  });
}

/** Loopback redirect URIs match whatever their port (RFC 8252 §7.3); others must match exactly. */
function sameRedirect(registered: string, current: string): boolean {
  if (registered === current) return true;
  try {
    const a = new URL(registered);
    const b = new URL(current);
    const loopback = (host: string): boolean => host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
    return loopback(a.hostname) && a.hostname === b.hostname && a.protocol === b.protocol && a.pathname === b.pathname;
  } catch {
    return false;
  }
}

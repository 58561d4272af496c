/**
 * @module auth/oauth-authorizer
 * OAuth for one server at the HTTP layer: a `fetch` for the SDK transports that sends the bearer token,
 * renews it before it expires, and answers the server's challenges — 401 (authorize: refresh when
 * possible, else the grant) and 403 `insufficient_scope` (step-up: authorize again with the wider
 * scope) — then replays the request. At most {@link DEFAULT_MAX_AUTHORIZATIONS_PER_REQUEST}
 * authorizations per request, so a server that never accepts cannot loop us.
 *
 * Why at the fetch layer: the transports' own OAuth path ends an interactive authorization with an
 * `UnauthorizedError` and leaves the code exchange and the reconnect to the host; here the
 * authorization (including a headless or browser login) completes inside the request, so a step-up
 * in the middle of a tool call is invisible to the caller, on every transport and request path.
 * The protocol work is the SDK's: `discoverOAuthServerInfo`, `auth`, `refreshAuthorization`.
 */

import {
  IssuerMismatchError,
  UnauthorizedError,
  auth,
  checkResourceAllowed,
  computeScopeUnion,
  discoverOAuthServerInfo,
  extractWWWAuthenticateParams,
  fetchToken,
  refreshAuthorization,
  resourceUrlFromServerUrl,
  selectResourceURL,
  withDpop,
  type FetchLike,
  type OAuthServerInfo,
} from '@modelcontextprotocol/client';
import { ErrorCode, SwitchboardError, isSwitchboardError } from '../errors.js';
import type { Logger } from '../logger.js';
import { toSwitchboardError } from '../to-switchboard-error.js';
import type { OAuthRecord } from './oauth-token-store.js';
import { loginRequired, type SwitchboardOAuthProvider } from './switchboard-oauth-provider.js';

import { DEFAULT_MAX_AUTHORIZATIONS_PER_REQUEST, DEFAULT_REFRESH_BEFORE_EXPIRY_MS } from './oauth-defaults.js';

export { DEFAULT_MAX_AUTHORIZATIONS_PER_REQUEST, DEFAULT_REFRESH_BEFORE_EXPIRY_MS };

/** Options of {@link OAuthAuthorizer}. */
export interface OAuthAuthorizerOptions {
  provider: SwitchboardOAuthProvider;
  serverUrl: string;
  /** Used for the server's requests and the OAuth requests (discovery, registration, tokens). */
  fetch: FetchLike;
  logger: Logger;
  /** @default DEFAULT_MAX_AUTHORIZATIONS_PER_REQUEST */
  maxAuthorizationsPerRequest?: number;
  /** @default DEFAULT_REFRESH_BEFORE_EXPIRY_MS */
  refreshBeforeExpiryMs?: number;
  /**
   * False when OAuth was not configured for this server but offered to every server (a token store was
   * given): then only a `Bearer` challenge starts an authorization, and any other 401 (a server that
   * wants an API key) is left to the transport. @default true
   */
  configured?: boolean;
}

interface Challenge {
  resourceMetadataUrl?: URL;
  scope?: string;
}

/** Authorizes one server's requests. See the module doc. */
export class OAuthAuthorizer {
  /** The fetch to give the transports. */
  readonly fetch: FetchLike;
  readonly #provider: SwitchboardOAuthProvider;
  readonly #serverUrl: string;
  readonly #base: FetchLike;
  readonly #logger: Logger;
  readonly #maxAuthorizations: number;
  readonly #refreshBeforeExpiryMs: number;
  readonly #configured: boolean;
  #inFlight: Promise<void> | undefined;
  #requestedScope: string | undefined;

  constructor(options: OAuthAuthorizerOptions) {
    this.#provider = options.provider;
    this.#serverUrl = options.serverUrl;
    this.#base = options.fetch;
    this.#logger = options.logger;
    this.#maxAuthorizations = options.maxAuthorizationsPerRequest ?? DEFAULT_MAX_AUTHORIZATIONS_PER_REQUEST;
    this.#refreshBeforeExpiryMs = options.refreshBeforeExpiryMs ?? DEFAULT_REFRESH_BEFORE_EXPIRY_MS;
    this.#configured = options.configured ?? true;
    this.fetch = (input, init) => this.#fetch(input, init);
  }

  get provider(): SwitchboardOAuthProvider {
    return this.#provider;
  }

  /** The current access token, renewed first when it is about to expire. */
  async accessToken(): Promise<string | undefined> {
    const record = await this.#provider.record();
    if (record.tokens === undefined) return undefined;
    if (!this.#isExpiring(record)) return record.tokens.access_token;
    try {
      await this.#once(async () => {
        if (!this.#isExpiring(await this.#provider.record())) return;
        if (await this.#refresh()) return;
        // Machine grants need no person: get a new token instead of waiting for a 401.
        if (this.#provider.grant !== 'authorization_code') await this.#authorize({}, { stepUp: false, signal: undefined });
      });
    } catch (error) {
      this.#logger.debug('OAuth: could not renew the token before it expired', { error: describe(error) });
    }
    return (await this.#provider.record()).tokens?.access_token;
  }

  /**
   * Runs an authorization now (e.g. `switchboard login`): refresh when possible unless `force`, else
   * the grant. Throws a {@link SwitchboardError} (`SERVER_UNAUTHORIZED`) saying why it failed.
   */
  async authorize(options: { force?: boolean; signal?: AbortSignal } = {}): Promise<void> {
    await this.#once(() => this.#authorize({}, { stepUp: options.force === true, signal: options.signal }));
  }

  async #fetch(input: string | URL, init: RequestInit | undefined): Promise<Response> {
    let authorizations = 0;
    let lastStepUpScope: string | undefined;
    for (let round = 0; ; round++) {
      const token = await this.accessToken();
      const response = await this.#send(input, init, token);
      if (response.status !== 401 && response.status !== 403) return response;
      if (!this.#configured && !/^\s*(bearer|dpop)\b/i.test(response.headers.get('www-authenticate') ?? '')) return response;
      const challenge = extractWWWAuthenticateParams(response);
      if (response.status === 403 && challenge.error !== 'insufficient_scope') return response;
      // A streamed body cannot be sent twice; leave the answer to the transport.
      if (!isReplayable(init)) return response;
      await response.text().catch(() => '');
      const request: Challenge = {
        ...(challenge.resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl: challenge.resourceMetadataUrl }),
        ...(challenge.scope === undefined ? {} : { scope: challenge.scope }),
      };
      if (response.status === 401) {
        // Another request (or `switchboard login` in another process) may have renewed the token.
        const current = (await this.#provider.reload()).tokens?.access_token;
        if (current !== undefined && current !== token && round <= this.#maxAuthorizations) continue;
        if (authorizations >= this.#maxAuthorizations) throw asAuthError(this.#gaveUp(401, authorizations, challenge.scope));
        authorizations++;
        await this.#authorizeForRequest(request, false, init);
        continue;
      }
      const tokens = (await this.#provider.record()).tokens;
      const scope = computeScopeUnion(this.#requestedScope, tokens?.scope, challenge.scope);
      if (authorizations >= this.#maxAuthorizations || (scope !== undefined && scope === lastStepUpScope)) {
        throw asAuthError(this.#gaveUp(403, authorizations, challenge.scope));
      }
      lastStepUpScope = scope;
      authorizations++;
      this.#logger.info('OAuth: the server asks for more scope; authorizing again', { scope });
      await this.#authorizeForRequest({ ...request, ...(scope === undefined ? {} : { scope }) }, true, init);
    }
  }

  /** The request with its token: `Bearer`, or for a DPoP-bound token `DPoP` and a fresh proof (the SDK retries a nonce challenge inline). */
  async #send(input: string | URL, init: RequestInit | undefined, token: string | undefined): Promise<Response> {
    const bound = token !== undefined && (await this.#provider.record()).tokens?.token_type?.toLowerCase() === 'dpop';
    const session = bound ? await this.#provider.dpop() : undefined;
    if (session === undefined) return this.#base(input, withBearer(init, token));
    return withDpop(session, () => token)(this.#base)(input, init);
  }

  async #authorizeForRequest(challenge: Challenge, stepUp: boolean, init: RequestInit | undefined): Promise<void> {
    try {
      await this.#once(() => this.#authorize(challenge, { stepUp, signal: init?.signal ?? undefined }));
    } catch (error) {
      throw asAuthError(error);
    }
  }

  /** One authorization at a time: concurrent requests that hit a 401 wait for the same one. */
  #once(run: () => Promise<void>): Promise<void> {
    if (this.#inFlight !== undefined) return this.#inFlight;
    const flight = run().finally(() => {
      if (this.#inFlight === flight) this.#inFlight = undefined;
    });
    this.#inFlight = flight;
    return flight;
  }

  async #authorize(challenge: Challenge, options: { stepUp: boolean; signal: AbortSignal | undefined }): Promise<void> {
    const provider = this.#provider;
    try {
      // A refresh keeps the granted scope, so it cannot answer a step-up (RFC 6749 §6).
      if (!options.stepUp && (await this.#refresh())) return;
      const settings = provider.settings;
      const mayUseMachineGrant =
        settings.grant === 'client_credentials' ||
        settings.grant === 'jwt-bearer' ||
        (settings.grant === undefined && (settings.clientSecret !== undefined || settings.privateKey !== undefined || settings.privateKeyFile !== undefined));
      // Fail before any request when only a person could continue and none is there.
      if (!mayUseMachineGrant && !provider.canAuthorizeInteractively) throw loginRequired(provider.server, provider.loginCommand);

      const info = await this.#discover(challenge.resourceMetadataUrl);
      provider.selectGrant(info.authorizationServerMetadata);
      await provider.usePreregisteredClient(info.authorizationServerMetadata);
      if (provider.grant === 'authorization_code' && !provider.canAuthorizeInteractively) throw loginRequired(provider.server, provider.loginCommand);
      await provider.saveDiscoveryState({ ...info, ...(challenge.resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl: challenge.resourceMetadataUrl.href }) });

      const scope = challenge.scope ?? computeScopeUnion(info.resourceMetadata?.scopes_supported?.join(' '), settings.scopes?.join(' '));
      this.#requestedScope = scope;
      provider.useSignal(options.signal);
      const common = {
        serverUrl: this.#serverUrl,
        fetchFn: this.#base,
        ...(challenge.resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl: challenge.resourceMetadataUrl }),
      };
      // forceReauthorization: the refresh was tried above; the SDK's own attempt would only repeat it.
      const result = provider.presentsWorkloadJwt ? await this.#presentWorkloadJwt(info, scope) : await auth(provider, { ...common, ...(scope === undefined ? {} : { scope }), forceReauthorization: true });
      if (result === 'REDIRECT') {
        const callback = provider.takeAuthorizationCallback();
        if (callback === undefined) throw loginRequired(provider.server, provider.loginCommand);
        await auth(provider, { ...common, authorizationCode: callback.code, ...(callback.iss === undefined ? {} : { iss: callback.iss }) });
      }
      const record = await provider.record();
      this.#logger.info('OAuth: authorized', {
        grant: provider.grant,
        ...(record.tokens?.scope === undefined ? {} : { scope: record.tokens.scope }),
        ...(record.tokens?.expires_in === undefined ? {} : { expiresInSeconds: record.tokens.expires_in }),
        refreshable: record.tokens?.refresh_token !== undefined,
      });
    } catch (error) {
      throw this.#failure(error);
    } finally {
      provider.useSignal(undefined);
    }
  }

  /**
   * A workload's own JWT (SEP-1933), in exactly one token request: the SDK's `auth()` retries once
   * after `invalid_grant` (for a stale refresh token), and a refused JWT would only be refused again.
   */
  async #presentWorkloadJwt(info: OAuthServerInfo, scope: string | undefined): Promise<'AUTHORIZED'> {
    const provider = this.#provider;
    const metadata = info.authorizationServerMetadata;
    const issuer = metadata?.issuer ?? info.authorizationServerUrl;
    const resource = await selectResourceURL(this.#serverUrl, provider, info.resourceMetadata);
    const tokens = await fetchToken(provider, info.authorizationServerUrl, {
      fetchFn: this.#base,
      ...(metadata === undefined ? {} : { metadata }),
      ...(resource === undefined ? {} : { resource }),
      ...(scope === undefined ? {} : { scope }),
    });
    await provider.saveTokens({ ...tokens, issuer });
    return 'AUTHORIZED';
  }

  async #discover(resourceMetadataUrl: URL | undefined): Promise<OAuthServerInfo> {
    const options = { fetchFn: this.#base, ...(resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl }) };
    let info: OAuthServerInfo;
    try {
      info = await discoverOAuthServerInfo(this.#serverUrl, options);
    } catch (error) {
      if (!(error instanceof IssuerMismatchError) || error.kind !== 'metadata') throw error;
      // 2025-03-26 servers (no protected resource metadata) are their own authorization server: their
      // metadata sits at the origin's root while its issuer may name a path of that origin. Accept
      // exactly that, and nothing else (another origin's issuer is still refused).
      const legacy = await discoverOAuthServerInfo(this.#serverUrl, { ...options, skipIssuerMetadataValidation: true });
      const issuer = legacy.authorizationServerMetadata?.issuer;
      if (legacy.resourceMetadata !== undefined || issuer === undefined || new URL(issuer).origin !== new URL(this.#serverUrl).origin) throw error;
      this.#logger.debug('OAuth: 2025-03-26 server; its metadata names issuer on the same origin', { issuer });
      info = legacy;
    }
    const resource = info.resourceMetadata?.resource;
    if (resource !== undefined && !checkResourceAllowed({ requestedResource: resourceUrlFromServerUrl(this.#serverUrl), configuredResource: resource })) {
      // A token for another resource would be usable there too: never ask for one (RFC 8707, RFC 9728 §3.3).
      throw new SwitchboardError(
        ErrorCode.ServerUnauthorized,
        `server "${this.#provider.server}": its protected resource metadata is for ${resource}, not ${this.#serverUrl}; refusing to authorize`,
        { server: this.#provider.server, reason: `its protected resource metadata is for ${resource}, not ${this.#serverUrl}; refusing to authorize`, hint: 'the server is misconfigured or impersonated; check the URL', details: { reason: 'resource-mismatch', resource } },
      );
    }
    this.#logger.debug('OAuth: discovered', {
      authorizationServer: info.authorizationServerUrl,
      hasServerMetadata: info.authorizationServerMetadata !== undefined,
      ...(resource === undefined ? {} : { resource }),
    });
    return info;
  }

  /** Uses the refresh token, if any. False when there is none or the server refused it. */
  async #refresh(): Promise<boolean> {
    const provider = this.#provider;
    const record = await provider.record();
    const tokens = record.tokens;
    const state = record.discoveryState;
    if (tokens?.refresh_token === undefined || state === undefined) return false;
    const issuer = tokens.issuer ?? state.authorizationServerMetadata?.issuer ?? state.authorizationServerUrl;
    const clientInformation = await provider.clientInformation({ issuer });
    if (clientInformation === undefined) return false;
    try {
      const addClientAuthentication = provider.addClientAuthentication;
      const resource = state.resourceMetadata?.resource;
      const dpop = await provider.dpop();
      const fresh = await refreshAuthorization(state.authorizationServerUrl, {
        clientInformation,
        refreshToken: tokens.refresh_token,
        fetchFn: this.#base,
        ...(state.authorizationServerMetadata === undefined ? {} : { metadata: state.authorizationServerMetadata }),
        ...(resource === undefined ? {} : { resource }),
        ...(addClientAuthentication === undefined ? {} : { addClientAuthentication }),
        ...(dpop === undefined ? {} : { dpop }),
      });
      await provider.saveTokens({ ...fresh, ...(tokens.issuer === undefined ? {} : { issuer: tokens.issuer }) });
      this.#logger.debug('OAuth: token refreshed', { ...(fresh.expires_in === undefined ? {} : { expiresInSeconds: fresh.expires_in }) });
      return true;
    } catch (error) {
      this.#logger.debug('OAuth: refresh failed; authorizing again', { error: describe(error) });
      await provider.invalidateCredentials('tokens');
      return false;
    }
  }

  #isExpiring(record: OAuthRecord): boolean {
    const lifetimeSeconds = record.tokens?.expires_in;
    const obtainedAt = record.tokensObtainedAt;
    if (lifetimeSeconds === undefined || obtainedAt === undefined) return false;
    const lifetimeMs = lifetimeSeconds * 1000;
    return Date.now() >= obtainedAt + lifetimeMs - Math.min(this.#refreshBeforeExpiryMs, lifetimeMs / 10);
  }

  #failure(error: unknown): SwitchboardError {
    const server = this.#provider.server;
    const mapped = toSwitchboardError(error, { server, operation: 'OAuth' });
    if (mapped.code !== ErrorCode.Internal) return mapped;
    // The SDK reports discovery and validation failures as plain errors: they are still auth failures.
    return new SwitchboardError(ErrorCode.ServerUnauthorized, mapped.message, {
      server,
      cause: error,
      hint: 'check the server URL and its OAuth metadata (switchboard doctor --debug shows the requests)',
      details: { reason: 'oauth-failed' },
    });
  }

  #gaveUp(status: 401 | 403, attempts: number, scope: string | undefined): SwitchboardError {
    const server = this.#provider.server;
    if (status === 401) {
      return new SwitchboardError(ErrorCode.ServerUnauthorized, `server "${server}" still refuses the token after ${attempts} authorization${attempts === 1 ? '' : 's'} (HTTP 401)`, {
        server,
        reason: `still refuses the token after ${attempts} authorization${attempts === 1 ? '' : 's'} (HTTP 401)`,
        hint: `log in again with: switchboard login ${server} --force`,
        details: { status: 401, reason: 'token-refused', attempts },
      });
    }
    return new SwitchboardError(
      ErrorCode.ServerUnauthorized,
      `server "${server}" refused access: insufficient scope${scope === undefined ? '' : ` (needs ${scope})`}, still after ${attempts} authorization${attempts === 1 ? '' : 's'} (HTTP 403)`,
      {
        server,
        reason: `refused access: insufficient scope${scope === undefined ? '' : ` (needs ${scope})`}, still after ${attempts} authorization${attempts === 1 ? '' : 's'} (HTTP 403)`,
        hint: 'the account may lack this permission; ask the server owner, or log in with another account',
        details: { status: 403, reason: 'insufficient-scope', attempts, ...(scope === undefined ? {} : { requiredScope: scope }) },
      },
    );
  }
}

/**
 * Errors leave the fetch as the SDK's `UnauthorizedError` (so version negotiation and the transports
 * treat them as auth failures), carrying ours as `cause`; `toSwitchboardError` unwraps it.
 */
export function asAuthError(error: unknown): Error {
  const mapped = isSwitchboardError(error) ? error : toSwitchboardError(error);
  const wrapper = new UnauthorizedError(mapped.message);
  Object.defineProperty(wrapper, 'cause', { value: mapped, configurable: true, writable: true });
  return wrapper;
}

function withBearer(init: RequestInit | undefined, token: string | undefined): RequestInit | undefined {
  if (token === undefined) return init;
  const headers = new Headers(init?.headers);
  headers.set('Authorization', `Bearer ${token}`);
  return { ...init, headers };
}

function isReplayable(init: RequestInit | undefined): boolean {
  const body = init?.body;
  return body === undefined || body === null || typeof body === 'string' || body instanceof URLSearchParams;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

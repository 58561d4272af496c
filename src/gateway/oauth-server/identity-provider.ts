/**
 * @module gateway/oauth-server/identity-provider
 * Signing in on the gateway's authorization page through the admin's OpenID provider (Google,
 * Keycloak, Entra ID…) instead of a gateway token, with `openid-client` (panva's certified relying
 * party): authorization code + PKCE + state + nonce, the ID token checked by the library. The
 * person is the registry user named by a claim (`email` unless configured) — only when the value is
 * on the allow-list (exact names, or `@domain` for a whole domain) — created on first sign-in when
 * `createUsers` is set. A sign-in waits here for at most 10 minutes, bound to its browser by a cookie.
 */

import { randomBytes, timingSafeEqual } from 'node:crypto';
import * as client from 'openid-client';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { ServerRegistry } from '../../registry/index.js';

/** How long a sign-in at the identity provider may take. @default 10 minutes */
export const IDP_LOGIN_TIMEOUT_MS = 10 * 60 * 1000;
/** Sign-ins waiting at once, at most (older ones are dropped). @default 1000 */
const MAX_PENDING = 1000;

/** The admin's OpenID provider. */
export interface IdentityProviderOptions {
  /** Its issuer (discovery at `/.well-known/openid-configuration`). */
  issuer: string;
  clientId: string;
  /** For a confidential client (`client_secret_post`); none for a public one. */
  clientSecret?: string;
  /** The claim naming the registry user. @default 'email' */
  claim?: string;
  /** Who may sign in: exact claim values, or `@example.com` for a domain. Required: nobody otherwise. */
  allow: string[];
  /** Add a user who signs in for the first time (on the allow-list). @default false */
  createUsers?: boolean;
  /** The button's text. @default 'Sign in with your organisation' */
  label?: string;
}

interface Pending {
  uid: string;
  binding: string;
  verifier: string;
  state: string;
  nonce: string;
  until: number;
}

/** Sign-ins through the identity provider, waiting for their browser. */
export class IdentityProviderLogin {
  readonly label: string;
  readonly #options: IdentityProviderOptions;
  readonly #redirectUri: string;
  readonly #registry: ServerRegistry;
  readonly #logger: Logger;
  readonly #pending = new Map<string, Pending>();
  readonly #done = new Map<string, { uid: string; binding: string; accountId: string; until: number }>();
  #config: Promise<client.Configuration> | undefined;

  constructor(options: IdentityProviderOptions, redirectUri: string, registry: ServerRegistry, logger: Logger) {
    if (options.allow.length === 0) throw new SwitchboardError(ErrorCode.InvalidArgument, 'identityProvider.allow is empty: nobody could sign in', { hint: 'list user names or @domain entries' });
    this.label = options.label ?? 'Sign in with your organisation';
    this.#options = options;
    this.#redirectUri = redirectUri;
    this.#registry = registry;
    this.#logger = logger;
  }

  /** The provider's configuration, discovered once (again after a failure). */
  #configuration(): Promise<client.Configuration> {
    this.#config ??= (async () => {
      const issuer = new URL(this.#options.issuer);
      // Plain http only for a provider on this machine (a test, a local Keycloak).
      const local = issuer.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname);
      const auth = this.#options.clientSecret === undefined ? client.None() : client.ClientSecretPost(this.#options.clientSecret);
      return client.discovery(issuer, this.#options.clientId, undefined, auth, local ? { execute: [client.allowInsecureRequests] } : undefined);
    })();
    this.#config.catch(() => (this.#config = undefined));
    return this.#config;
  }

  /** Starts a sign-in for interaction `uid`; the browser goes to `url` and keeps the `binding` cookie. */
  async start(uid: string): Promise<{ url: string; binding: string }> {
    this.#sweep();
    const config = await this.#configuration();
    const pending: Pending = { uid, binding: randomBytes(24).toString('base64url'), verifier: client.randomPKCECodeVerifier(), state: client.randomState(), nonce: client.randomNonce(), until: Date.now() + IDP_LOGIN_TIMEOUT_MS };
    if (this.#pending.size >= MAX_PENDING) this.#pending.delete(this.#pending.keys().next().value ?? '');
    this.#pending.set(pending.state, pending);
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.#redirectUri,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url: url.href, binding: pending.binding };
  }

  /**
   * Completes the sign-in the provider redirected back with: checks the browser's binding, redeems
   * the code, checks the ID token, and finds (or creates) the user. Answers the interaction to resume
   * and a one-time ticket for it.
   */
  async complete(callback: URL, binding: string | undefined): Promise<{ uid: string; ticket: string }> {
    const pending = this.#pending.get(callback.searchParams.get('state') ?? '');
    if (pending === undefined || pending.until <= Date.now()) throw new SwitchboardError(ErrorCode.NotFound, 'this sign-in is unknown or has expired', { hint: 'start again from your MCP client' });
    if (binding === undefined || !sameText(binding, pending.binding)) throw new SwitchboardError(ErrorCode.Forbidden, 'this sign-in was started in another browser');
    this.#pending.delete(pending.state);
    const config = await this.#configuration();
    const claim = this.#options.claim ?? 'email';
    let claims: Record<string, unknown> | undefined;
    try {
      const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: pending.verifier, expectedState: pending.state, expectedNonce: pending.nonce, idTokenExpected: true });
      const idToken = tokens.claims();
      claims = idToken;
      // Many providers put profile claims only in the userinfo answer (for the ID token's subject).
      if (idToken !== undefined && idToken[claim] === undefined) claims = { ...(await client.fetchUserInfo(config, tokens.access_token, idToken.sub)), ...idToken };
    } catch (error) {
      this.#logger.warn('a sign-in through the identity provider failed', { error: error instanceof Error ? ((error as { code?: string }).code ?? error.name) : 'unknown' });
      throw new SwitchboardError(ErrorCode.Unauthorized, 'the identity provider did not confirm the sign-in', { hint: 'try again, or sign in with a gateway token' });
    }
    const name = claims?.[claim];
    if (typeof name !== 'string' || name === '') throw new SwitchboardError(ErrorCode.Forbidden, `the identity provider sent no "${claim}"`);
    if (claim === 'email' && claims?.email_verified === false) throw new SwitchboardError(ErrorCode.Forbidden, `${name} is not verified at the identity provider`);
    if (!allowed(name, this.#options.allow)) {
      this.#logger.warn('a sign-in through the identity provider is not on the allow-list', { user: name });
      throw new SwitchboardError(ErrorCode.Forbidden, `${name} may not use this gateway`, { hint: 'ask the administrator to add you' });
    }
    let user = await this.#registry.users.find(name);
    if (user === undefined && this.#options.createUsers === true) {
      user = await this.#registry.users.add(name);
      this.#logger.info('a user was created at their first sign-in through the identity provider', { user: name });
    }
    if (user === undefined) throw new SwitchboardError(ErrorCode.Forbidden, `there is no user "${name}" on this gateway`, { hint: 'ask the administrator to add you' });
    const ticket = randomBytes(24).toString('base64url');
    this.#done.set(ticket, { uid: pending.uid, binding: pending.binding, accountId: user.id, until: Date.now() + IDP_LOGIN_TIMEOUT_MS });
    return { uid: pending.uid, ticket };
  }

  /** The user a ticket of interaction `uid` signed in (once; the same browser's binding). */
  take(ticket: string, uid: string, binding: string | undefined): string | undefined {
    const done = this.#done.get(ticket);
    this.#done.delete(ticket);
    if (done === undefined || done.uid !== uid || done.until <= Date.now() || binding === undefined || !sameText(binding, done.binding)) return undefined;
    return done.accountId;
  }

  #sweep(): void {
    const now = Date.now();
    for (const [key, entry] of this.#pending) if (entry.until <= now) this.#pending.delete(key);
    for (const [key, entry] of this.#done) if (entry.until <= now) this.#done.delete(key);
  }
}

function allowed(name: string, allow: readonly string[]): boolean {
  const lower = name.toLowerCase();
  return allow.some((entry) => (entry.startsWith('@') ? lower.endsWith(entry.toLowerCase()) : lower === entry.toLowerCase()));
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

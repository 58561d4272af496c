/**
 * @module auth/oauth-client-options
 * The OAuth options of a connection, a type module of its own: it is public API
 * (`ServerConnectionOptions.oauth`, `MultiServerClientOptions.oauth`) and the pool fills it per user.
 */

import type { AuthorizationUrlHandler } from './authorization-callback.js';
import type { OAuthTokenStore } from './oauth-token-store.js';

/** OAuth options of a connection (`ServerConnectionOptions.oauth`, `MultiServerClientOptions.oauth`). */
export interface OAuthClientOptions {
  /** Where tokens and registrations are kept. @default a memory store per connection */
  store?: OAuthTokenStore;
  /** Completes an authorization-code login (browser, or a program). Without it, only stored or machine credentials work. */
  onAuthorizationUrl?: AuthorizationUrlHandler;
  /** The redirect URI of logins. @default `http://127.0.0.1:<oauth.redirectPort>/callback`, else `http://127.0.0.1/callback` */
  redirectUrl?: string;
  /** @default 3 */
  maxAuthorizationsPerRequest?: number;
  /** The command that logs a person in to `server`, for error hints. @default `switchboard login <server>` */
  loginCommand?: (server: string) => string;
}

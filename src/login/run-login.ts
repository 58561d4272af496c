/**
 * @module login/run-login
 * One interactive OAuth login to a remote server, as `switchboard login` and the gateway's
 * `POST /api/servers/:name/login` run it: connect with an authorization handler (the person's browser
 * comes back to `redirectUrl`), store the tokens, close. Resolves with the tokens stored, or undefined
 * when the server never asked for authorization.
 */

import type { FetchLike } from '@modelcontextprotocol/client';
import type { HttpServerSpec } from '../config/server-spec.js';
import { ServerConnection } from '../connection/server-connection.js';
import type { Logger } from '../logger.js';
import type { AuthorizationUrlHandler } from '../auth/authorization-callback.js';
import type { OAuthTokenStore } from '../auth/oauth-token-store.js';

/** How long a login may wait for the person to finish in the browser. @default 300000 */
export const LOGIN_TIMEOUT_MS = 300_000;

/** What a login needs. */
export interface LoginRun {
  spec: HttpServerSpec;
  store: OAuthTokenStore;
  /** The fetch that reaches the server (a tenant's pinned fetch). */
  fetch?: FetchLike | undefined;
  onAuthorizationUrl: AuthorizationUrlHandler;
  redirectUrl: string;
  logger: Logger;
  /** Authorize again even when tokens are stored. */
  force?: boolean;
  signal?: AbortSignal;
}

/** The stored tokens after a login (undefined: the server did not ask for authorization). */
export interface LoginTokens {
  scope?: string;
  refreshable: boolean;
  expiresInSeconds?: number;
}

/** Runs one login; rejects with the SwitchboardError of the step that failed. */
export async function runLogin(run: LoginRun): Promise<LoginTokens | undefined> {
  // The start-up deadline must leave a person time to log in.
  const spec: HttpServerSpec = { ...run.spec, startupTimeoutMs: Math.max(run.spec.startupTimeoutMs, LOGIN_TIMEOUT_MS) };
  const connection = new ServerConnection(spec, {
    logger: run.logger,
    oauth: { store: run.store, onAuthorizationUrl: run.onAuthorizationUrl, redirectUrl: run.redirectUrl },
    ...(run.fetch === undefined ? {} : { fetch: run.fetch }),
  });
  try {
    const provider = (await connection.oauthAuthorizer())?.provider;
    if (run.force === true) await provider?.invalidateCredentials('tokens');
    await connection.connect(run.signal === undefined ? {} : { signal: run.signal });
    const tokens = (await provider?.reload())?.tokens;
    if (tokens === undefined) return undefined;
    return {
      ...(tokens.scope === undefined || tokens.scope === '' ? {} : { scope: tokens.scope }),
      refreshable: tokens.refresh_token !== undefined,
      ...(tokens.expires_in === undefined ? {} : { expiresInSeconds: tokens.expires_in }),
    };
  } finally {
    await connection.close();
  }
}

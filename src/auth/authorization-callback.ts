/**
 * @module auth/authorization-callback
 * The step of the authorization-code grant that needs a person (or a program standing in for one):
 * the authorization URL goes out through an {@link AuthorizationUrlHandler}, the redirect comes back
 * as a URL (or its query, or a bare code) and is checked here: `state` must match, an `error` ends the
 * flow, and `code` + `iss` go on to the token exchange.
 */

import { ErrorCode, SwitchboardError } from '../errors.js';

/** What a handler is told about the authorization it must complete. */
export interface AuthorizationContext {
  /** The server's name in the config. */
  server: string;
  /** Where the authorization server will redirect to. */
  redirectUrl: string;
  /** Aborted when the connection attempt is given up (deadline, close). */
  signal: AbortSignal | undefined;
}

/**
 * Completes an authorization: opens `authorizationUrl` (a browser, or a program following it) and
 * resolves with the redirect it ended at — the full redirect URL, its query string (`URLSearchParams`),
 * or the bare `code`. A bare code skips the `state` check, so return the URL when you have it.
 *
 * @example
 * ```ts
 * // A headless program whose authorization server approves at once:
 * const onAuthorizationUrl: AuthorizationUrlHandler = async (url) => {
 *   const response = await fetch(url, { redirect: 'manual' });
 *   return response.headers.get('location') ?? '';
 * };
 * ```
 */
export type AuthorizationUrlHandler = (authorizationUrl: URL, context: AuthorizationContext) => Promise<string | URL | URLSearchParams>;

/** The part of the redirect the token exchange needs. */
export interface AuthorizationCallback {
  code: string;
  /** RFC 9207 issuer identification, checked by the SDK against the authorization server. */
  iss?: string;
}

/** Reads and checks the redirect a handler returned. Never echoes `code` or `state`. */
export function parseAuthorizationCallback(value: string | URL | URLSearchParams, expectedState: string | undefined, server: string): AuthorizationCallback {
  let params: URLSearchParams;
  if (value instanceof URLSearchParams) params = value;
  else if (value instanceof URL) params = value.searchParams;
  else {
    const text = value.trim();
    const url = parseUrl(text);
    if (url === undefined) {
      if (text === '' || /\s/.test(text)) throw callbackError(server, 'the authorization returned no code');
      // A bare code: the program took responsibility for the state check.
      return { code: text };
    }
    params = url.searchParams;
  }
  const error = params.get('error');
  if (error !== null) {
    // error_description is written by the authorization server and is shown only as a detail.
    throw new SwitchboardError(ErrorCode.ServerUnauthorized, `server "${server}": the authorization was refused (${error.slice(0, 64)})`, {
      server,
      reason: `the authorization was refused (${error.slice(0, 64)})`,
      hint: error === 'access_denied' ? 'approve the request in the browser, or ask the server owner for access' : 'try again; if it persists, check the client registration',
      details: { reason: 'authorization-refused', oauthError: error.slice(0, 64) },
    });
  }
  if (expectedState !== undefined && params.get('state') !== expectedState) {
    throw callbackError(server, 'the authorization redirect carried the wrong state (a forged or stale redirect)', 'state-mismatch');
  }
  const code = params.get('code');
  if (code === null || code === '') throw callbackError(server, 'the authorization redirect carried no code');
  const iss = params.get('iss');
  return { code, ...(iss === null ? {} : { iss }) };
}

function parseUrl(text: string): URL | undefined {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(text)) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function callbackError(server: string, message: string, reason = 'bad-callback'): SwitchboardError {
  return new SwitchboardError(ErrorCode.ServerUnauthorized, `server "${server}": ${message}`, {
    server,
    reason: message,
    hint: `start again with: switchboard login ${server}`,
    details: { reason },
  });
}

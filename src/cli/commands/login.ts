/**
 * @module cli/commands/login
 * `switchboard login SERVER`: logs a person in to a remote server that uses OAuth. Connects to the
 * server; when it asks for authorization, the authorization URL is opened in the browser (or printed)
 * and a loopback server on 127.0.0.1 receives the redirect; the tokens are stored encrypted
 * (`.switchboard/oauth/`) for every later command. `switchboard logout SERVER` forgets them.
 */

import { FileOAuthTokenStore } from '../../auth/file-oauth-token-store.js';
import type { AuthorizationUrlHandler } from '../../auth/authorization-callback.js';
import { startLoopbackRedirectServer } from '../../auth/loopback-redirect-server.js';
import { oauthStoreKey } from '../../auth/oauth-token-store.js';
import { openBrowser } from '../../auth/open-browser.js';
import type { HttpServerSpec } from '../../config/server-spec.js';
import { ServerConnection } from '../../connection/server-connection.js';
import type { Logger } from '../../logger.js';
import { usageError } from '../cli-error.js';
import { loadConfigForCli } from '../connect-config.js';
import { style, writeDiagnostic, writeResult } from '../output.js';

/** How long a login may wait for the person to finish in the browser. @default 300000 */
export const LOGIN_TIMEOUT_MS = 300_000;

/** Options of {@link login}. */
export interface LoginOptions {
  server: string;
  config?: string;
  /** Log in even when a token is stored. */
  force?: boolean;
  /** @default true */
  openBrowser?: boolean;
  logger: Logger;
  signal?: AbortSignal;
  /** Where tokens go. @default a {@link FileOAuthTokenStore} in `.switchboard/oauth` */
  store?: FileOAuthTokenStore;
}

/** Logs in to one server; exits 1 when the login fails. */
export async function login(options: LoginOptions): Promise<void> {
  const spec = await remoteSpec(options.server, options);
  const store = options.store ?? new FileOAuthTokenStore();
  const loopback = await startLoopbackRedirectServer(spec.oauth?.redirectPort ?? 0);
  try {
    const onAuthorizationUrl: AuthorizationUrlHandler = async (url, context) => {
      writeDiagnostic(`To log in to "${spec.name}", open:\n\n  ${url.href}\n`);
      if (options.openBrowser !== false && (await openBrowser(url.href))) writeDiagnostic(style.dim('(opened in your browser)'));
      writeDiagnostic(style.dim('waiting for the authorization… (Ctrl-C to cancel)'));
      const signals = [context.signal, options.signal].filter((signal): signal is AbortSignal => signal !== undefined);
      return loopback.waitForCallback(signals.length === 0 ? undefined : AbortSignal.any(signals));
    };
    // The start-up deadline must leave a person time to log in.
    const loginSpec: HttpServerSpec = { ...spec, startupTimeoutMs: Math.max(spec.startupTimeoutMs, LOGIN_TIMEOUT_MS) };
    const connection = new ServerConnection(loginSpec, {
      logger: options.logger,
      oauth: { store, onAuthorizationUrl, redirectUrl: loopback.redirectUrl },
    });
    try {
      const provider = (await connection.oauthAuthorizer())?.provider;
      if (options.force === true) await provider?.invalidateCredentials('tokens');
      await connection.connect(options.signal === undefined ? {} : { signal: options.signal });
      const tokens = (await provider?.reload())?.tokens;
      if (tokens === undefined) {
        writeResult(`server "${spec.name}" did not ask for authorization; nothing to store`);
        return;
      }
      const facts = [
        tokens.scope === undefined || tokens.scope === '' ? undefined : `scope: ${tokens.scope}`,
        tokens.refresh_token === undefined ? 'no refresh token' : 'refreshable',
        tokens.expires_in === undefined ? undefined : `expires in ${Math.round(tokens.expires_in / 60)} min`,
      ].filter((fact) => fact !== undefined);
      writeResult(`${style.green('✓', true)} logged in to "${spec.name}" (${facts.join(', ')})`);
    } finally {
      await connection.close();
    }
  } finally {
    await loopback.close();
  }
}

/** Options of {@link logout}. */
export interface LogoutOptions {
  server: string;
  config?: string;
  logger: Logger;
  store?: FileOAuthTokenStore;
}

/** Deletes the stored OAuth record of a server. */
export async function logout(options: LogoutOptions): Promise<void> {
  const spec = await remoteSpec(options.server, options);
  const store = options.store ?? new FileOAuthTokenStore();
  await store.delete(oauthStoreKey(spec.url, spec.oauth?.clientId ?? spec.oauth?.clientMetadataUrl));
  writeResult(`forgot the OAuth tokens of "${spec.name}"`);
}

async function remoteSpec(name: string, options: { config?: string; logger: Logger }): Promise<HttpServerSpec> {
  const { config } = await loadConfigForCli({ ...(options.config === undefined ? {} : { config: options.config }), server: [name], logger: options.logger });
  const spec = config.servers[0];
  if (spec === undefined) throw usageError(`unknown server "${name}"`);
  if (spec.type !== 'http') throw usageError(`server "${name}" is started as a process; login is for remote (URL) servers`);
  return spec;
}

/**
 * @module cli/commands/login
 * `switchboard login SERVER`: logs a person in to a remote server that uses OAuth. Connects to the
 * server; when it asks for authorization, the authorization URL is opened in the browser (or printed)
 * and a loopback server on 127.0.0.1 receives the redirect; the tokens are stored encrypted
 * (`.switchboard/oauth/`) for every later command. `switchboard logout SERVER` forgets them.
 * With `--user U`, the server is one user U has in the registry (their own, a shared one, or one of
 * the config file `serve` reads: `--config`, $SWITCHBOARD_CONFIG or one found here), and the tokens
 * go to U's encrypted secrets in the registry, where the gateway's client of U uses them; a tenant's
 * server is reached under their address policy.
 */

import { FileOAuthTokenStore } from '../../auth/file-oauth-token-store.js';
import type { OAuthTokenStore } from '../../auth/oauth-token-store.js';
import type { AuthorizationUrlHandler } from '../../auth/authorization-callback.js';
import { startLoopbackRedirectServer } from '../../auth/loopback-redirect-server.js';
import { oauthStoreKey } from '../../auth/oauth-token-store.js';
import { openBrowser } from '../../auth/open-browser.js';
import { runLogin } from '../../login/run-login.js';
import type { HttpServerSpec } from '../../config/server-spec.js';
import type { FetchLike } from '@modelcontextprotocol/client';
import type { Logger } from '../../logger.js';
import { usageError } from '../cli-error.js';
import { loadConfigForCli } from '../connect-config.js';
import { openRegistryForCli } from '../open-registry.js';
import { style, writeDiagnostic, writeResult } from '../output.js';

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
  /** Log in as this registry user: their server, their tokens, kept in the registry. */
  user?: string;
  /** The registry (with `user`). @default `$SWITCHBOARD_DB`, else `.switchboard/switchboard.db` */
  db?: string;
  /** Where tokens go. @default a {@link FileOAuthTokenStore} in `.switchboard/oauth` */
  store?: FileOAuthTokenStore;
}

/** Where a login or logout acts: the server, the token store, and the fetch to reach it. */
interface LoginTarget {
  spec: HttpServerSpec;
  store: OAuthTokenStore;
  fetch: FetchLike | undefined;
  close(): Promise<void>;
}

/** Logs in to one server; exits 1 when the login fails. */
export async function login(options: LoginOptions): Promise<void> {
  const target = await loginTarget(options);
  try {
    await loginTo(target, options);
  } finally {
    await target.close();
  }
}

async function loginTo({ spec, store, fetch }: LoginTarget, options: LoginOptions): Promise<void> {
  const loopback = await startLoopbackRedirectServer(spec.oauth?.redirectPort ?? 0);
  try {
    const onAuthorizationUrl: AuthorizationUrlHandler = async (url, context) => {
      writeDiagnostic(`To log in to "${spec.name}", open:\n\n  ${url.href}\n`);
      if (options.openBrowser !== false && (await openBrowser(url.href))) writeDiagnostic(style.dim('(opened in your browser)'));
      writeDiagnostic(style.dim('waiting for the authorization… (Ctrl-C to cancel)'));
      const signals = [context.signal, options.signal].filter((signal): signal is AbortSignal => signal !== undefined);
      return loopback.waitForCallback(signals.length === 0 ? undefined : AbortSignal.any(signals));
    };
    const tokens = await runLogin({
      spec,
      store,
      fetch,
      onAuthorizationUrl,
      redirectUrl: loopback.redirectUrl,
      logger: options.logger,
      ...(options.force === undefined ? {} : { force: options.force }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    if (tokens === undefined) {
      writeResult(`server "${spec.name}" did not ask for authorization; nothing to store`);
      return;
    }
    const facts = [
      tokens.scope === undefined ? undefined : `scope: ${tokens.scope}`,
      tokens.refreshable ? 'refreshable' : 'no refresh token',
      tokens.expiresInSeconds === undefined ? undefined : `expires in ${Math.round(tokens.expiresInSeconds / 60)} min`,
    ].filter((fact) => fact !== undefined);
    const who = options.user === undefined ? '' : ` as user "${options.user}"`;
    writeResult(`${style.green('✓', true)} logged in to "${spec.name}"${who} (${facts.join(', ')})`);
  } finally {
    await loopback.close();
  }
}

/** Options of {@link logout}. */
export interface LogoutOptions {
  server: string;
  config?: string;
  logger: Logger;
  /** Forget the tokens of this registry user. */
  user?: string;
  db?: string;
  store?: FileOAuthTokenStore;
}

/** Deletes the stored OAuth record of a server. */
export async function logout(options: LogoutOptions): Promise<void> {
  const { spec, store, close } = await loginTarget(options);
  try {
    await store.delete(oauthStoreKey(spec.url, spec.oauth?.clientId ?? spec.oauth?.clientMetadataUrl));
  } finally {
    await close();
  }
  writeResult(`forgot the OAuth tokens of "${spec.name}"${options.user === undefined ? '' : ` for user "${options.user}"`}`);
}

async function loginTarget(options: { server: string; config?: string; logger: Logger; user?: string; db?: string; store?: FileOAuthTokenStore }): Promise<LoginTarget> {
  if (options.user === undefined) {
    if (options.db !== undefined) throw usageError('--db names the registry of --user: add --user NAME (without it, tokens are kept in .switchboard/oauth)');
    const spec = remoteOnly(await configSpec(options.server, options), options.server);
    return { spec, store: options.store ?? new FileOAuthTokenStore(), fetch: undefined, close: async () => {} };
  }
  const registry = await openRegistryForCli(options.db, options.logger);
  try {
    const { userLoginTarget } = await import('../../registry/user-login-target.js');
    const user = await registry.users.get(options.user);
    const userConfig = await registry.configForUser({ id: user.id });
    // The gateway gives every user the servers of its config file too (a registry server of the same name wins).
    const found = userConfig.config.servers.find((server) => server.name === options.server) ?? (await gatewayConfigSpec(options.server, options));
    if (found === undefined) throw usageError(`user "${options.user}" has no server "${options.server}" (see: switchboard servers list --user ${options.user})`);
    const spec = remoteOnly(found, options.server);
    const target = await userLoginTarget(registry, user, userConfig, spec, options.logger);
    return {
      spec,
      store: target.store,
      fetch: target.fetch,
      close: async () => {
        await target.close();
        await registry.close();
      },
    };
  } catch (error) {
    await registry.close();
    throw error;
  }
}

async function configSpec(name: string, options: { config?: string; logger: Logger }) {
  const { config } = await loadConfigForCli({ ...(options.config === undefined ? {} : { config: options.config }), server: [name], logger: options.logger });
  const spec = config.servers[0];
  if (spec === undefined) throw usageError(`unknown server "${name}"`);
  return spec;
}

/**
 * The server `name` of the config file `switchboard serve` would read here — `--config`, else
 * $SWITCHBOARD_CONFIG, else one found in the working directory — or undefined (no such file or server).
 */
async function gatewayConfigSpec(name: string, options: { config?: string; logger: Logger }) {
  const explicit = options.config ?? process.env.SWITCHBOARD_CONFIG;
  if (explicit === undefined || explicit === '') {
    const { findConfigFile } = await import('../../config/load-config.js');
    const found = await findConfigFile(undefined, process.cwd()).catch(() => undefined);
    if (found === undefined) return undefined;
  }
  const { config } = await loadConfigForCli({ ...(options.config === undefined ? {} : { config: options.config }), logger: options.logger });
  return config.servers.find((server) => server.name === name);
}

function remoteOnly(spec: Awaited<ReturnType<typeof configSpec>>, name: string): HttpServerSpec {
  if (spec.type !== 'http') throw usageError(`server "${name}" is started as a process; login is for remote (URL) servers`);
  return spec;
}

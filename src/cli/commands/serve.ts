/**
 * @module cli/commands/serve
 * `switchboard serve`: the gateway. Over HTTP (default 127.0.0.1:7410) it prints where it listens,
 * how to log in to the dashboard, the admin token on first start (also written to
 * `.switchboard/token`, mode 0600) and how to point MCP clients at it; with `--stdio` it serves the
 * administrator's (or `--user`'s) servers on stdin/stdout and logs to stderr only. Logs are JSON
 * lines on stderr. SIGINT/SIGTERM (or, with `--stdio`, the client closing stdin) stop it gracefully.
 */

import { resolve } from 'node:path';
import type { ExternalAuthorizationConfig, SwitchboardConfig } from '../../config/server-spec.js';
import { TOOL_SEARCH_MODES, type ToolSearchMode } from '../../client/search/tool-search-mode.js';
import { formatConfigIssue } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { JsonLogLevel } from '../../gateway/json-logger.js';
import type { StartGatewayOptions } from '../../gateway/serve.js';
import { usageError } from '../cli-error.js';
import { identityProviderFromFlags, type IdentityProviderFlags } from './serve-identity-provider.js';
import { parseGatewayLimits } from '../parse-gateway-limits.js';
import { writeResult } from '../output.js';

/** Options of {@link serve}. */
export interface ServeOptions {
  config?: string;
  db?: string;
  host?: string;
  port?: number;
  stdio: boolean;
  user?: string;
  /** With `stdio`: a named endpoint to serve instead of `/mcp`. */
  endpoint?: string;
  allowedHosts: string[];
  allowedOrigins: string[];
  /** `--limit NAME=VALUE` pairs (see {@link parseGatewayLimits}); over HTTP only. */
  limits?: string[];
  /** The built-in OAuth server (`--public-url`, `--no-oauth`, …); over HTTP only. @default on */
  oauth?: StartGatewayOptions['oauth'];
  /** `--idp-*`: sign-in through the admin's OpenID provider on the authorization page. */
  identityProvider?: IdentityProviderFlags;
  /** `--tool-search off|on|auto`: the mode of users without their own setting; over HTTP only. */
  toolSearch?: string;
  /** `--replica-url`: where the other replicas of a cluster reach this one; over HTTP only. */
  replicaUrl?: string;
  logLevel: JsonLogLevel;
  /** Aborted by SIGINT/SIGTERM. */
  signal: AbortSignal;
  /** Aborted by a second signal: running calls are cancelled instead of awaited. */
  hurry?: AbortSignal;
  /** For start-up problems before the JSON logger exists. */
  logger: Logger;
}

/** Where the first start writes the admin token (and `switchboard stats` reads it). */
export const TOKEN_FILE = '.switchboard/token';

/** Runs the gateway until a signal (or, with `--stdio`, the end of stdin). */
export async function serve(options: ServeOptions): Promise<void> {
  if (options.port !== undefined && (!Number.isInteger(options.port) || options.port < 0 || options.port > 65_535)) {
    throw usageError(`--port must be a whole number from 0 to 65535, got ${String(options.port)}`);
  }
  if (options.stdio && (options.host !== undefined || options.port !== undefined)) throw usageError('--stdio serves on stdin/stdout: --host and --port do not apply');
  if (!options.stdio && options.endpoint !== undefined) throw usageError('--endpoint applies to --stdio only (over HTTP, clients use /mcp/e/NAME)');
  if (!options.stdio && options.user !== undefined) throw usageError('--user applies to --stdio only (over HTTP, each request says who it is with its token)');
  if (options.stdio && (options.limits?.length ?? 0) > 0) throw usageError('--limit applies to the HTTP gateway: over --stdio there is one client and no sockets');
  if (options.toolSearch !== undefined && !(TOOL_SEARCH_MODES as readonly string[]).includes(options.toolSearch)) throw usageError(`--tool-search must be one of ${TOOL_SEARCH_MODES.join(', ')}, got "${options.toolSearch}"`);
  if (options.stdio && options.replicaUrl !== undefined) throw usageError('--replica-url applies to the HTTP gateway: a --stdio gateway serves one client and takes no hops');
  if (options.stdio && options.toolSearch !== undefined) throw usageError('--tool-search applies to the HTTP gateway: over --stdio, set the user\'s own (switchboard users tool-search NAME on)');
  const limits = parseGatewayLimits(options.limits ?? []);
  const shared = await sharedConfig(options);
  const { createJsonLogger } = await import('../../gateway/json-logger.js');
  const { logger, flush } = await createJsonLogger({ level: options.logLevel });
  const tokenFile = resolve(TOKEN_FILE);
  const envToken = process.env.SWITCHBOARD_TOKEN;
  const common = {
    ...(options.db === undefined ? {} : { db: options.db }),
    ...(shared === undefined ? {} : { sharedConfig: { servers: shared.config.servers, naming: shared.config.naming } }),
    bootstrap: { tokenFile, ...(envToken === undefined ? {} : { envToken }) },
    logger,
  };
  try {
    if (options.stdio) {
      const { serveGatewayStdio } = await import('../../gateway/serve-stdio.js');
      const running = await serveGatewayStdio({ ...common, ...(options.user === undefined ? {} : { user: options.user }), ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }), ...(options.hurry === undefined ? {} : { hurry: options.hurry }) });
      try {
        await Promise.race([running.done, aborted(options.signal)]);
      } finally {
        await running.close();
      }
      return;
    }
    const { startGateway } = await import('../../gateway/serve.js');
    const running = await startGateway({
      ...common,
      ...(options.host === undefined ? {} : { host: options.host }),
      ...(options.port === undefined ? {} : { port: options.port }),
      allowedHosts: options.allowedHosts,
      allowedOrigins: options.allowedOrigins,
      ...oauthOf(withIdentityProvider(options), shared?.config.authorization),
      ...limits,
      ...(options.toolSearch === undefined ? {} : { toolSearch: options.toolSearch as ToolSearchMode }),
      ...(options.replicaUrl === undefined ? {} : { replicaUrl: options.replicaUrl }),
      ...(options.hurry === undefined ? {} : { hurry: options.hurry }),
    });
    try {
      writeResult(banner({ url: running.url, admin: running.admin, tokenFile, shared, db: options.db }));
      // The administrator's servers start now, so the first client does not wait for them.
      if (running.admin !== undefined) void running.gateway.warm(running.admin.user);
      await aborted(options.signal);
    } finally {
      await running.close();
    }
  } finally {
    flush();
  }
}

/** `--idp-*` added to the OAuth options (an error with `--no-oauth`). */
function withIdentityProvider(options: ServeOptions): ServeOptions['oauth'] {
  const identityProvider = options.identityProvider === undefined ? undefined : identityProviderFromFlags(options.identityProvider, process.env);
  if (identityProvider === undefined) return options.oauth;
  if (options.oauth === false) throw usageError('--idp-issuer signs people in on the gateway\'s authorization server, which --no-oauth turns off');
  return { ...(options.oauth ?? {}), identityProvider };
}

/** The OAuth options: the flags', with the config file's `authorization:` (an external authorization server). */
function oauthOf(flags: ServeOptions['oauth'], external: ExternalAuthorizationConfig | undefined): { oauth?: StartGatewayOptions['oauth'] } {
  if (flags === false) {
    if (external !== undefined) throw usageError('--no-oauth turns OAuth off, but the config file names an authorization server (authorization:)');
    return { oauth: false };
  }
  if (external === undefined) return flags === undefined ? {} : { oauth: flags };
  return { oauth: { ...(flags ?? {}), external } };
}

/** The config file's servers: the named file, else one found in the working directory, else none. */
async function sharedConfig(options: ServeOptions): Promise<{ config: SwitchboardConfig; source: string } | undefined> {
  const { findConfigFile, loadConfig } = await import('../../config/load-config.js');
  const explicit = options.config ?? process.env.SWITCHBOARD_CONFIG;
  if (explicit === undefined || explicit === '') {
    try {
      await findConfigFile(undefined, process.cwd());
    } catch {
      options.logger.info('no config file here: serving the registry\'s servers only');
      return undefined;
    }
  }
  const loaded = await loadConfig(options.config === undefined ? {} : { configPath: options.config });
  for (const warning of loaded.warnings) options.logger.warn(formatConfigIssue(warning));
  return { config: loaded.config, source: loaded.source };
}

function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

interface BannerInput {
  url: string;
  admin: import('../../gateway/bootstrap-admin.js').AdminBootstrap | undefined;
  tokenFile: string;
  shared: { config: SwitchboardConfig; source: string } | undefined;
  db: string | undefined;
}

/** What a person starting the gateway needs to know: where, how to log in, how to connect clients. */
function banner(input: BannerInput): string {
  const { url, admin, tokenFile } = input;
  const token = admin?.token;
  // The token is shown when this process created it, or read it from the token file (a local setup);
  // a token from SWITCHBOARD_TOKEN stays out of the output (it may be a CI secret).
  const showToken = token !== undefined && (admin?.source === 'created' || admin?.source === 'file');
  const tokenText = showToken ? token : admin?.source === 'env' ? '$SWITCHBOARD_TOKEN' : `$(cat ${TOKEN_FILE})`;
  const servers = input.shared === undefined ? 'none from a config file' : `${input.shared.config.servers.map((spec) => spec.name).join(', ') || 'none'} (from ${input.shared.source})`;
  const configArgs = input.shared === undefined ? [] : ['--config', input.shared.source];
  const db = input.db ?? process.env.SWITCHBOARD_DB ?? '.switchboard/switchboard.db';
  // A database URL stays as it is; a file path is made absolute (the client starts us elsewhere).
  const dbArgs = ['--db', /^[a-z][a-z0-9+.-]*:\/\//i.test(db) ? db : resolve(db)];
  const stdioArgs = ['--prefix', process.cwd(), 'switchboard', 'serve', '--stdio', ...configArgs, ...dbArgs];
  const lines = [
    `mcp-switchboard gateway listening on ${url}`,
    `  MCP endpoint   ${url}/mcp  (Streamable HTTP; send Authorization: Bearer <token>)`,
    `  servers        ${servers}, plus each user's servers in the registry`,
  ];
  if (admin?.source === 'created') {
    lines.push(`  admin token    ${token ?? ''}`, `                 shown once; also written to ${tokenFile} (readable by you only)`);
  } else if (admin?.source === 'none') {
    lines.push(`  admin token    not found in ${tokenFile}; make one: switchboard token create --user ${admin.user.name} > ${TOKEN_FILE}`);
  }
  // Encoded: a chosen token may hold `+ / =` (base64), and the page decodes the fragment (`+` is a space).
  if (showToken) lines.push(`  dashboard      ${url}/#token=${encodeURIComponent(token ?? '')}`);
  else lines.push(`  dashboard      ${url}/#token=<token>`);
  lines.push(
    '',
    'Point an MCP client at it:',
    '  .mcp.json / Claude Desktop (stdio, started by the client):',
    // `cwd`: clients start servers wherever they stand (Claude Desktop: `/`); the gateway runs here.
    `    ${JSON.stringify({ mcpServers: { switchboard: { command: 'npx', args: stdioArgs, cwd: process.cwd() } } })}`,
    '  Streamable HTTP (this gateway):',
    `    ${JSON.stringify({ mcpServers: { switchboard: { type: 'http', url: `${url}/mcp`, headers: { Authorization: `Bearer ${showToken ? (token ?? '') : '<token>'}` } } } })}`,
    '  MCP Inspector CLI:',
    `    npx @modelcontextprotocol/inspector-cli --cli ${url}/mcp --transport http --header "Authorization: Bearer ${tokenText}" --method tools/list`,
    '    (inspector-cli 1.0.3 finds its own package.json only when run from a subfolder of a project, e.g. demo/)',
    '',
    'Stop with Ctrl-C (running calls finish first).',
  );
  return lines.join('\n');
}

/**
 * @module cli/main
 * argv → command. Commands are plain functions, imported lazily so `switchboard --version` loads
 * almost nothing. The only place that calls `process.exit`: errors become exit codes here
 * (0 ok, 1 operation failed, 2 usage or config error, 130 interrupted).
 */

import { cac } from 'cac';
import type { Logger } from '../logger.js';
import { VERSION } from '../version.js';
import { inputFlagsAsEnv } from './ask-input.js';
import { checkShortOptions } from './check-short-options.js';
import { CliExit, ExitCode } from './cli-error.js';
import { createCliLogger, resolveLogLevel } from './cli-logger.js';
import { identityProviderFlagsOf, type IdpFlagValues } from './idp-flags.js';
import { style, writeDiagnostic } from './output.js';
import { REGISTRY_COMMANDS } from './registry-commands.js';
import { restoreTypedValues } from './restore-typed-values.js';
import { reportError } from './report-error.js';

interface GlobalFlags {
  config?: string;
  json?: boolean;
  debug?: boolean;
  verbose?: boolean;
  quiet?: boolean;
  server?: string | string[];
  input?: string | string[];
}

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function runCli(argv: readonly string[]): Promise<number> {
  const cli = cac('switchboard');
  const abort = new AbortController();
  let logger: Logger = createCliLogger('warn');
  const setup = (flags: GlobalFlags): Logger => {
    logger = createCliLogger(resolveLogLevel(flags));
    // `--input ID=VALUE` is SWITCHBOARD_INPUT_<ID> for this run (server processes never inherit it).
    Object.assign(process.env, inputFlagsAsEnv(listOf(flags.input)));
    return logger;
  };
  const servers = (flags: GlobalFlags): string[] => (flags.server === undefined ? [] : ([] as string[]).concat(flags.server).map(String));
  let pending: Promise<void> | undefined;
  // `serve` stops gracefully on SIGINT/SIGTERM and exits 0; other commands report an interrupt (130).
  let stopsOnSignal = false;

  cli
    .option('--config <file>', 'Config file (default: $SWITCHBOARD_CONFIG, switchboard.yaml, switchboard.json, .mcp.json, mcp.json)')
    .option('--debug', 'Log every JSON-RPC message in and out on stderr (also MCP_LOG_LEVEL=debug)')
    .option('--verbose', 'Log progress on stderr')
    .option('--quiet', 'Log only errors')
    .option('--input <id=value>', 'Value of a VS Code ${input:ID} in the config (repeatable; same as SWITCHBOARD_INPUT_<ID>)');

  cli
    .command('tools', 'List every server and its tools')
    .option('--json', 'Print JSON')
    .option('--server <name>', 'Only this server (repeatable)')
    .action((flags: GlobalFlags) => {
      pending = import('./commands/tools.js').then(({ tools }) =>
        tools({ ...configFlag(flags), server: servers(flags), json: flags.json === true, logger: setup(flags) }),
      );
    });

  cli
    .command('call <tool>', 'Call a tool and print its result')
    .option('--args <json>', 'Arguments as a JSON object, or @file.json')
    .option('--timeout <seconds>', 'Deadline of the call')
    .option('--json', 'Print the normalized result as JSON')
    .option('--server <name>', 'Only start this server (repeatable)')
    .action((tool: string, flags: GlobalFlags & { args?: unknown; timeout?: unknown }) => {
      pending = import('./commands/call.js').then(({ call }) =>
        call({
          tool: String(tool),
          ...configFlag(flags),
          server: servers(flags),
          ...(flags.args === undefined ? {} : { args: typeof flags.args === 'string' ? flags.args : JSON.stringify(flags.args) }),
          ...(flags.timeout === undefined ? {} : { timeout: Number(flags.timeout) }),
          json: flags.json === true,
          logger: setup(flags),
          signal: abort.signal,
        }),
      );
    });

  cli
    .command('doctor [server]', 'Diagnose servers step by step: spawn/connect, initialize, initialized, list-tools, ping')
    .option('--json', 'Print JSON')
    .action((server: string | undefined, flags: GlobalFlags) => {
      pending = import('./commands/doctor.js').then(({ doctor }) =>
        doctor({ ...(server === undefined ? {} : { server: String(server) }), ...configFlag(flags), json: flags.json === true, logger: setup(flags) }),
      );
    });

  cli
    .command('stats', 'Calls, errors, latency percentiles, cache and restarts per server and tool')
    .option('--json', 'Print JSON')
    .option('--call <tool>', 'Measure this tool directly (instead of asking a running gateway)')
    .option('--args <json>', 'Arguments of --call, as a JSON object')
    .option('--repeat <n>', 'Calls to make with --call (default 20)')
    .option('--concurrency <n>', 'Calls at once with --call (default 1)')
    .option('--server <name>', 'Only start this server with --call (repeatable)')
    .option('--url <url>', 'The gateway (default $SWITCHBOARD_URL or http://127.0.0.1:7410)')
    .option('--token <token>', 'The gateway token (default $SWITCHBOARD_TOKEN or .switchboard/token)')
    .action((flags: GlobalFlags & { call?: unknown; args?: unknown; repeat?: unknown; concurrency?: unknown; url?: unknown; token?: unknown }) => {
      pending = import('./commands/stats.js').then(({ stats }) =>
        stats({
          ...configFlag(flags),
          server: servers(flags),
          json: flags.json === true,
          ...(flags.call === undefined ? {} : { call: String(flags.call) }),
          ...(flags.args === undefined ? {} : { args: typeof flags.args === 'string' ? flags.args : JSON.stringify(flags.args) }),
          ...(flags.repeat === undefined ? {} : { repeat: Number(flags.repeat) }),
          ...(flags.concurrency === undefined ? {} : { concurrency: Number(flags.concurrency) }),
          ...(flags.url === undefined ? {} : { url: String(flags.url) }),
          ...(flags.token === undefined ? {} : { token: String(flags.token) }),
          logger: setup(flags),
        }),
      );
    });

  cli
    .command('serve', 'Run the gateway: every server behind one secure MCP endpoint (/mcp), per user, with a REST API, metrics and a dashboard')
    .option('--db <target>', 'Registry database: a file path or postgres:// URL (default: $SWITCHBOARD_DB, ./.switchboard/switchboard.db)')
    .option('--host <address>', 'Address to listen on (default 127.0.0.1: this machine only)')
    .option('--port <port>', 'Port to listen on (default 7410; 0 picks a free one)')
    .option('--stdio', 'Serve over stdin/stdout instead (for clients that start a command); logs go to stderr')
    .option('--user <name>', 'With --stdio: whose servers to serve (default: the administrator)')
    .option('--endpoint <name>', 'With --stdio: serve this named endpoint (as /mcp/e/NAME) instead of the user\'s /mcp')
    .option('--allowed-host <name>', 'Also answer to this Host name (repeatable; loopback names always)')
    .option('--allowed-origin <origin>', 'Also accept browser requests from this origin (repeatable; a bare host name: on any port)')
    .option('--limit <name=value>', 'Set a session, stream or connection limit, e.g. maxSessionsPerUser=200 (repeatable; see docs/api.md)')
    .option('--public-url <url>', "The gateway's public address (the OAuth issuer; /mcp under it is the resource), e.g. https://mcp.example.com (default: the listening URL)")
    .option('--no-oauth', 'Turn off the built-in OAuth authorization server (static API tokens only)')
    .option('--no-dynamic-registration', 'OAuth: refuse dynamic client registration (RFC 7591)')
    .option('--oauth-redirect-host <host>', 'OAuth: registered clients may redirect only to these https hosts (repeatable; loopback always)')
    .option('--idp-issuer <url>', 'OAuth sign-in through your OpenID provider (its issuer URL); register <public URL>/oauth/idp/callback there')
    .option('--idp-client-id <id>', 'The gateway\'s client id at the OpenID provider')
    .option('--idp-client-secret-env <var>', 'The environment variable holding its client secret (none: a public client)')
    .option('--idp-claim <claim>', 'The claim naming the registry user (default email, which must be verified)')
    .option('--idp-allow <entry>', 'Who may sign in: a user name, or @example.com for a domain (repeatable; required)')
    .option('--idp-create-users', 'Add an allowed person as a user at their first sign-in')
    .option('--idp-label <text>', 'The sign-in button\'s text (default "Sign in with your organisation")')
    .option('--tool-search <mode>', 'Tool search for users without their own setting: off, on or auto (default: off, every definition)')
    .option('--replica-url <url>', 'In a cluster: the URL the other replicas reach this one at, e.g. http://10.0.0.5:7410 (default: the listening URL)')
    .example('switchboard serve --config switchboard.yaml')
    .example('switchboard serve --stdio --config /path/to/switchboard.yaml --db /path/to/.switchboard/switchboard.db')
    .example('switchboard serve --host 0.0.0.0 --allowed-host gateway.internal.example')
    .action((flags: GlobalFlags & { db?: unknown; host?: unknown; port?: unknown; stdio?: boolean; user?: unknown; endpoint?: unknown; allowedHost?: unknown; allowedOrigin?: unknown; limit?: unknown; publicUrl?: unknown; replicaUrl?: unknown; oauth?: boolean; dynamicRegistration?: boolean; oauthRedirectHost?: unknown; toolSearch?: unknown } & IdpFlagValues) => {
      stopsOnSignal = true;
      process.on('SIGTERM', onSignal);
      const logger = setup(flags);
      const level = resolveLogLevel(flags);
      pending = import('./commands/serve.js').then(({ serve }) =>
        serve({
          ...configFlag(flags),
          ...(flags.db === undefined ? {} : { db: String(flags.db) }),
          ...(flags.host === undefined ? {} : { host: String(flags.host) }),
          ...(flags.port === undefined ? {} : { port: Number(flags.port) }),
          stdio: flags.stdio === true,
          ...(flags.user === undefined ? {} : { user: String(flags.user) }),
          ...(flags.endpoint === undefined ? {} : { endpoint: String(flags.endpoint) }),
          allowedHosts: listOf(flags.allowedHost),
          allowedOrigins: listOf(flags.allowedOrigin),
          limits: listOf(flags.limit),
          ...(flags.toolSearch === undefined ? {} : { toolSearch: String(flags.toolSearch) }),
          ...(flags.replicaUrl === undefined ? {} : { replicaUrl: String(flags.replicaUrl) }),
          oauth:
            flags.oauth === false
              ? false
              : {
                  ...(flags.publicUrl === undefined ? {} : { issuer: String(flags.publicUrl) }),
                  registration: { enabled: flags.dynamicRegistration !== false, ...(flags.oauthRedirectHost === undefined ? {} : { redirectHosts: listOf(flags.oauthRedirectHost) }) },
                },
          identityProvider: identityProviderFlagsOf(flags),
          // Without --quiet/--verbose/--debug the gateway logs each request (info), not just warnings.
          logLevel: flags.quiet === true ? 'warn' : level === 'warn' ? 'info' : level === 'error' ? 'error' : level,
          signal: abort.signal,
          hurry: hurry.signal,
          logger,
        }),
      );
    });

  cli
    .command('login <server>', 'Log in to a remote server that uses OAuth (opens the browser, or prints the URL)')
    .option('--force', 'Log in again even when a valid token is stored')
    .option('--no-browser', 'Print the URL instead of opening a browser')
    .option('--user <name>', 'Log in as this registry user: the tokens go to the registry, for the gateway')
    .option('--db <target>', 'Registry database, with --user (default: $SWITCHBOARD_DB, ./.switchboard/switchboard.db)')
    .action((server: string, flags: GlobalFlags & { force?: boolean; browser?: boolean; user?: unknown; db?: unknown }) => {
      pending = import('./commands/login.js').then(({ login }) =>
        login({
          server: String(server),
          ...configFlag(flags),
          ...userFlags(flags),
          force: flags.force === true,
          openBrowser: flags.browser !== false,
          logger: setup(flags),
          signal: abort.signal,
        }),
      );
    });

  cli
    .command('chat', 'Talk to an agent that uses every server\'s tools (any OpenAI-compatible endpoint: OPENAI_BASE_URL, OPENAI_API_KEY)')
    .option('--model <name>', 'Model name (default: $OPENAI_MODEL, else the endpoint\'s first model, else gpt-4o-mini on the OpenAI API)')
    .option('--once <question>', 'Ask one question, print the answer, exit')
    .option('--system <prompt>', 'System prompt')
    .option('--server <name>', 'Only start this server (repeatable)')
    .option('--tool-search <mode>', 'off | on | auto: offer search_tools and call_tool instead of every tool (auto: above 40 tools or ~8,000 tokens of definitions; default auto)')
    .action((flags: GlobalFlags & { model?: unknown; once?: unknown; system?: unknown; toolSearch?: unknown }) => {
      pending = import('./commands/chat.js').then(({ chat }) =>
        chat({
          ...configFlag(flags),
          server: servers(flags),
          ...(flags.model === undefined ? {} : { model: String(flags.model) }),
          ...(flags.once === undefined ? {} : { once: String(flags.once) }),
          ...(flags.system === undefined ? {} : { system: String(flags.system) }),
          ...(flags.toolSearch === undefined ? {} : { toolSearch: String(flags.toolSearch) }),
          logger: setup(flags),
          signal: abort.signal,
        }),
      );
    });

  cli
    .command('logout <server>', 'Forget the OAuth tokens stored for a server')
    .option('--user <name>', 'Forget the tokens of this registry user')
    .option('--db <target>', 'Registry database, with --user (default: $SWITCHBOARD_DB, ./.switchboard/switchboard.db)')
    .action((server: string, flags: GlobalFlags & { user?: unknown; db?: unknown }) => {
      pending = import('./commands/login.js').then(({ logout }) => logout({ server: String(server), ...configFlag(flags), ...userFlags(flags), logger: setup(flags) }));
    });

  // Hidden: the client the official MCP conformance suite drives (`npm run conformance`).
  if (argv[0] === 'conformance-client') {
    cli.command('conformance-client <url>', '').action((url: string, flags: GlobalFlags) => {
      pending = import('./commands/conformance-client.js').then(({ conformanceClient }) => conformanceClient({ url: String(url), logger: setup(flags) }));
    });
  }

  // Registry commands parse their own flags (see registry-commands.ts).
  for (const { usage, description, options, examples, load } of REGISTRY_COMMANDS) {
    const command = cli
      .command(usage, description)
      .option('--db [target]', 'Registry database: a file path or postgres:// URL (default: $SWITCHBOARD_DB, ./.switchboard/switchboard.db)')
      .option('--json', 'Print JSON')
      .allowUnknownOptions();
    for (const [flag, text] of options) command.option(flag, text);
    for (const example of examples) command.example(example);
    command.action((...actionArgs: unknown[]) => {
      const flags = (actionArgs.at(-1) ?? {}) as GlobalFlags;
      pending = load().then((run) => run(argv, setup(flags)));
    });
  }

  cli.help();
  cli.version(VERSION);

  // `serve`: a second signal stops waiting for running calls (they are cancelled, the servers still
  // closed); only a third one exits at once.
  const hurry = new AbortController();
  const onSignal = (): void => {
    if (abort.signal.aborted && (!stopsOnSignal || hurry.signal.aborted)) process.exit(ExitCode.Interrupted);
    if (abort.signal.aborted) hurry.abort(new Error('interrupted again'));
    else abort.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onSignal);
  try {
    checkShortOptions(argv);
    cli.parse(['node', 'switchboard', ...argv], { run: false });
    restoreTypedValues(cli.options, argv);
    if (cli.matchedCommand === undefined) {
      if (cli.options.help === true || cli.options.version === true) return ExitCode.Ok;
      if (cli.args.length > 0) throw new CliExit(ExitCode.Usage, `unknown command "${cli.args[0]}"; run switchboard --help`);
      cli.outputHelp();
      return ExitCode.Usage;
    }
    await cli.runMatchedCommand();
    await pending;
    return abort.signal.aborted && !stopsOnSignal ? ExitCode.Interrupted : ExitCode.Ok;
  } catch (error) {
    return reportError(error, logger);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

function listOf(value: unknown): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

function configFlag(flags: GlobalFlags): { config?: string } {
  return flags.config === undefined ? {} : { config: String(flags.config) };
}

function userFlags(flags: { user?: unknown; db?: unknown }): { user?: string; db?: string } {
  return { ...(flags.user === undefined ? {} : { user: String(flags.user) }), ...(flags.db === undefined ? {} : { db: String(flags.db) }) };
}

/** Entry point of the `switchboard` bin. */
export async function main(): Promise<void> {
  const code = await runCli(process.argv.slice(2));
  // Flush stdout before exiting: process.exit does not wait for pipes.
  if (process.stdout.writableLength > 0) await new Promise((resolve) => process.stdout.once('drain', resolve));
  process.exit(code);
}

/**
 * @module cli/main
 * argv → command. Commands are plain functions, imported lazily so `switchboard --version` loads
 * almost nothing. The only place that calls `process.exit`: errors become exit codes here
 * (0 ok, 1 operation failed, 2 usage or config error, 130 interrupted).
 */

import { cac } from 'cac';
import { ErrorCode, formatConfigIssue, isSwitchboardError } from '../errors.js';
import type { Logger } from '../logger.js';
import { VERSION } from '../version.js';
import { CliExit, ExitCode } from './cli-error.js';
import { createCliLogger, resolveLogLevel } from './cli-logger.js';
import { style, writeDiagnostic } from './output.js';

interface GlobalFlags {
  config?: string;
  json?: boolean;
  debug?: boolean;
  verbose?: boolean;
  quiet?: boolean;
  server?: string | string[];
}

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function runCli(argv: readonly string[]): Promise<number> {
  const cli = cac('switchboard');
  const abort = new AbortController();
  let logger: Logger = createCliLogger('warn');
  const setup = (flags: GlobalFlags): Logger => {
    logger = createCliLogger(resolveLogLevel(flags));
    return logger;
  };
  const servers = (flags: GlobalFlags): string[] => (flags.server === undefined ? [] : ([] as string[]).concat(flags.server).map(String));
  let pending: Promise<void> | undefined;

  cli
    .option('--config <file>', 'Config file (default: $SWITCHBOARD_CONFIG, switchboard.yaml, switchboard.json, .mcp.json, mcp.json)')
    .option('--debug', 'Log every JSON-RPC message in and out on stderr (also MCP_LOG_LEVEL=debug)')
    .option('--verbose', 'Log progress on stderr')
    .option('--quiet', 'Log only errors');

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

  // Registry commands parse their own flags (see registry-args.ts: values stay strings as typed).
  const registryCommands: Array<[name: string, usage: string, description: string, load: () => Promise<(argv: readonly string[], logger: Logger) => Promise<void>>]> = [
    ['users', 'users <add|list|remove> [name]', 'Registry users: add NAME [--admin], list, remove NAME', async () => (await import('./commands/users.js')).users],
    [
      'servers',
      'servers <add|list|remove|enable|disable> [name]',
      'Registry servers of --user U or --shared: add NAME (--url U | --path P | --command C [--arg A]… | --template T [--param K=V]…) [--api-key K] [--header "H: V"]… [--env K=V]…; list [--json]; remove|enable|disable NAME',
      async () => (await import('./commands/servers.js')).servers,
    ],
    ['token', 'token <create|list|revoke> [prefix]', 'API tokens: create --user U (printed once), list --user U, revoke PREFIX --user U', async () => (await import('./commands/token.js')).token],
    ['templates', 'templates <add|list|remove> [name]', 'Admin stdio templates tenants instantiate: add NAME --command C [--arg A]… [--param name[?][!][:type[:pattern]]]…', async () => (await import('./commands/templates.js')).templates],
    ['policy', 'policy <show|set>', 'The tenant policy, global or --user U: set [--allow-stdio true|false] [--allow-http-host H]… [--allow-address CIDR]… [--max-servers N] …', async () => (await import('./commands/policy.js')).policy],
    ['keys', 'keys <rotate>', 'Re-encrypt every stored secret under a new key', async () => (await import('./commands/keys.js')).keys],
  ];
  for (const [, usage, description, load] of registryCommands) {
    cli
      .command(usage, description)
      .option('--db <target>', 'Registry database: a file path or postgres:// URL (default: $SWITCHBOARD_DB, ./.switchboard/switchboard.db)')
      .option('--json', 'Print JSON')
      .allowUnknownOptions()
      .action((...actionArgs: unknown[]) => {
        const flags = (actionArgs.at(-1) ?? {}) as GlobalFlags;
        pending = load().then((run) => run(argv, setup(flags)));
      });
  }

  cli.help();
  cli.version(VERSION);

  const onSignal = (): void => {
    if (abort.signal.aborted) process.exit(ExitCode.Interrupted);
    abort.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onSignal);
  try {
    cli.parse(['node', 'switchboard', ...argv], { run: false });
    if (cli.matchedCommand === undefined) {
      if (cli.options.help === true || cli.options.version === true) return ExitCode.Ok;
      if (cli.args.length > 0) throw new CliExit(ExitCode.Usage, `unknown command "${cli.args[0]}"; run switchboard --help`);
      cli.outputHelp();
      return ExitCode.Usage;
    }
    await cli.runMatchedCommand();
    await pending;
    return abort.signal.aborted ? ExitCode.Interrupted : ExitCode.Ok;
  } catch (error) {
    return reportError(error, logger);
  } finally {
    process.off('SIGINT', onSignal);
  }
}

function configFlag(flags: GlobalFlags): { config?: string } {
  return flags.config === undefined ? {} : { config: String(flags.config) };
}

/** Prints what went wrong (no stack traces for user mistakes) and picks the exit code. */
function reportError(error: unknown, logger: Logger): number {
  if (error instanceof CliExit) {
    if (error.message !== '') writeDiagnostic(error.exitCode === ExitCode.Failed ? style.red(error.message) : error.message);
    return error.exitCode;
  }
  if (isSwitchboardError(error)) {
    if (error.code === ErrorCode.ConfigInvalid) {
      writeDiagnostic(style.red(error.message));
      const warnings = (error as { warnings?: unknown }).warnings;
      if (Array.isArray(warnings) && warnings.length > 0) {
        writeDiagnostic(`warnings:\n${warnings.map((warning) => `  ${formatConfigIssue(warning as { path: string; message: string })}`).join('\n')}`);
      }
      return ExitCode.Usage;
    }
    writeDiagnostic(`${style.red(`error ${error.code}`)}: ${error.message}`);
    if (error.hint !== undefined) writeDiagnostic(style.dim(`hint: ${error.hint}`));
    return ExitCode.Failed;
  }
  if (error instanceof Error && /^(Unknown option|missing required args|Unused args)/i.test(error.message)) {
    writeDiagnostic(`${error.message}; run switchboard --help`);
    return ExitCode.Usage;
  }
  writeDiagnostic(style.red('internal error (this is a bug in mcp-switchboard; please report it with the output of --debug):'));
  writeDiagnostic(error instanceof Error ? (error.stack ?? error.message) : String(error));
  logger.debug('internal error', { error: String(error) });
  return ExitCode.Failed;
}

/** Entry point of the `switchboard` bin. */
export async function main(): Promise<void> {
  const code = await runCli(process.argv.slice(2));
  // Flush stdout before exiting: process.exit does not wait for pipes.
  if (process.stdout.writableLength > 0) await new Promise((resolve) => process.stdout.once('drain', resolve));
  process.exit(code);
}

/**
 * @module cli/cli-logger
 * The CLI's logger: human-readable lines on stderr, `warn` and above by default, everything with
 * `--debug` / `MCP_LOG_LEVEL=debug` (which includes every JSON-RPC message in and out, tagged with
 * the server, secrets redacted upstream). A terminal reader wants text, not pino's JSON lines; the
 * gateway logs JSON.
 */

import type { LogFields, Logger } from '../logger.js';
import { style, writeDiagnostic } from './output.js';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
/** A log level name. */
export type CliLogLevel = keyof typeof LEVELS;

/** The level from flags and `MCP_LOG_LEVEL` (flags win). */
export function resolveLogLevel(flags: { debug?: boolean; verbose?: boolean; quiet?: boolean }, env: NodeJS.ProcessEnv = process.env): CliLogLevel {
  if (flags.debug === true) return 'debug';
  if (flags.verbose === true) return 'info';
  if (flags.quiet === true) return 'error';
  const fromEnv = env.MCP_LOG_LEVEL?.toLowerCase();
  if (fromEnv !== undefined && fromEnv in LEVELS) return fromEnv as CliLogLevel;
  return 'warn';
}

/** A stderr logger at `level`. */
export function createCliLogger(level: CliLogLevel, bound: LogFields = {}): Logger {
  const threshold = LEVELS[level];
  const write = (name: Exclude<CliLogLevel, 'silent'>, message: string, fields?: LogFields): void => {
    if (LEVELS[name] < threshold) return;
    const all = { ...bound, ...fields };
    const server = typeof all.server === 'string' ? all.server : undefined;
    delete all.server;
    const tag = name === 'error' ? style.red(name) : name === 'warn' ? style.yellow(name) : style.dim(name);
    const rest = Object.entries(all)
      .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join(' ');
    writeDiagnostic(`${tag}${server === undefined ? '' : ` [${server}]`} ${message}${rest === '' ? '' : ` ${style.dim(rest)}`}`);
  };
  return {
    debug: (message, fields) => write('debug', message, fields),
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
    child: (fields) => createCliLogger(level, { ...bound, ...fields }),
    isDebugEnabled: () => threshold <= LEVELS.debug,
  };
}

/**
 * @module logger
 * The library never writes to stdout or stderr: it logs through an injected {@link Logger}.
 * `pino` loggers satisfy this interface as they are.
 */

/** Structured fields attached to a log line. Never put secrets in them. */
export type LogFields = Record<string, unknown>;

/** The logging interface the library accepts (pino-compatible argument order is *not* required). */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line. */
  child(fields: LogFields): Logger;
  /** Cheap check before building an expensive debug message. @default false for the no-op logger */
  isDebugEnabled?(): boolean;
  /** Whether lines of `level` are written at all (a wrapper skips its work for the others). @default true */
  isLevelEnabled?(level: LogLevel): boolean;
}

/** The levels of a {@link Logger}'s lines. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const noop = (): void => {};

/** Discards everything. The default of every library entry point. */
export const noopLogger: Logger = {
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
  child: () => noopLogger,
  isDebugEnabled: () => false,
};

/** True when `logger` wants debug lines (used to skip building protocol traces). */
export function isDebugEnabled(logger: Logger): boolean {
  return logger.isDebugEnabled?.() ?? logger !== noopLogger;
}

/**
 * @module gateway/json-logger
 * The gateway's logs: one JSON line per event through `pino`, adapted to the library's
 * {@link Logger} (message first, fields second). Lines go to stderr by default — stdout belongs to
 * results (and, with `--stdio`, to the MCP protocol itself).
 */

import type { Logger as PinoLogger } from 'pino';
import type { LogFields, Logger } from '../logger.js';
import { redactingLogger } from '../util/redacting-logger.js';

/** Log levels of {@link createJsonLogger}. */
export type JsonLogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** Options of {@link createJsonLogger}. */
export interface JsonLoggerOptions {
  /** @default 'info' */
  level?: JsonLogLevel;
  /** File descriptor written to. @default 2 (stderr) */
  fd?: number;
  /**
   * Every line written before the logging call returns, instead of buffered writes: for short runs
   * and tests that close the descriptor at once (a buffered write in flight would hit a closed one).
   * @default false
   */
  sync?: boolean;
}

/** A logger and the flush to call before the process exits (writes are buffered). */
export interface JsonLogger {
  logger: Logger;
  flush(): void;
}

/**
 * A pino JSON logger. Field names that may carry secrets (`authorization`, `token`, `apiKey`,
 * `headers`, `env`) are redacted wherever they appear at the top level or one level down, and URL
 * credentials (userinfo, credential-looking query values) in any string of a line.
 *
 * @example
 * ```ts
 * const { logger, flush } = await createJsonLogger({ level: 'info' });
 * logger.info('request', { requestId, method: 'POST', path: '/mcp', status: 200, ms: 3.1 });
 * ```
 */
export async function createJsonLogger(options: JsonLoggerOptions = {}): Promise<JsonLogger> {
  const { pino } = await import('pino');
  const destination = pino.destination({ fd: options.fd ?? 2, sync: options.sync === true });
  const secretKeys = ['authorization', 'token', 'apiKey', 'headers', 'env', 'password'];
  const instance = pino(
    {
      level: options.level ?? 'info',
      base: { pid: process.pid },
      redact: { paths: [...secretKeys, ...secretKeys.map((key) => `*.${key}`)], censor: '[redacted]' },
    },
    destination,
  );
  return {
    // URL credentials are redacted in every line, whoever logs (pino's redact only knows field names).
    logger: redactingLogger(fromPino(instance)),
    flush: () => {
      try {
        destination.flushSync();
      } catch {
        // Not ready yet (nothing written): nothing to flush.
      }
    },
  };
}

/** Adapts a pino logger to the library's {@link Logger}. */
export function fromPino(instance: PinoLogger): Logger {
  const fields = (extra: LogFields | undefined): LogFields => extra ?? {};
  return {
    debug: (message, extra) => instance.debug(fields(extra), message),
    info: (message, extra) => instance.info(fields(extra), message),
    warn: (message, extra) => instance.warn(fields(extra), message),
    error: (message, extra) => instance.error(fields(extra), message),
    child: (bound) => fromPino(instance.child(bound)),
    isDebugEnabled: () => instance.isLevelEnabled('debug'),
    isLevelEnabled: (level) => instance.isLevelEnabled(level),
  };
}

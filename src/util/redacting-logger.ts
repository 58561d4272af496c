/**
 * @module util/redacting-logger
 * A {@link Logger} that redacts URL credentials (see `util/redact-urls`) in the message and in
 * every string of its fields before they reach the logger it wraps, so that no log line carries
 * a server URL's password or API key, whichever code path logged it.
 */

import { isDebugEnabled, noopLogger, type LogFields, type LogLevel, type Logger } from '../logger.js';
import { redactUrlsInText } from './redact-urls.js';

/** How deep fields are walked; deeper values are logged as they are. */
const MAX_DEPTH = 8;
const wrapped = new WeakSet<Logger>();

/** `logger`, redacting URL credentials in every line. Idempotent. */
export function redactingLogger(logger: Logger): Logger {
  if (logger === noopLogger || wrapped.has(logger)) return logger;
  // A line of a level the logger drops is not redacted first (the gateway logs every request at info).
  const enabled = (level: LogLevel): boolean => logger.isLevelEnabled?.(level) ?? true;
  const result: Logger = {
    debug: (message, fields) => enabled('debug') && logger.debug(redactUrlsInText(message), redactFields(fields)),
    info: (message, fields) => enabled('info') && logger.info(redactUrlsInText(message), redactFields(fields)),
    warn: (message, fields) => enabled('warn') && logger.warn(redactUrlsInText(message), redactFields(fields)),
    error: (message, fields) => enabled('error') && logger.error(redactUrlsInText(message), redactFields(fields)),
    child: (fields) => redactingLogger(logger.child(redactFields(fields) ?? {})),
    isDebugEnabled: () => isDebugEnabled(logger),
    isLevelEnabled: enabled,
  };
  wrapped.add(result);
  return result;
}

function redactFields(fields: LogFields | undefined): LogFields | undefined {
  if (fields === undefined) return undefined;
  const value = redactValue(fields, 0);
  return isPlainObject(value) ? value : fields;
}

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactUrlsInText(value);
  if (depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  if (value instanceof Error) return redactUrlsInText(String(value));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactValue(item, depth + 1)]));
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

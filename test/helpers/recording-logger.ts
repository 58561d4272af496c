/**
 * A logger that records every line, to see what the library logs and at which level.
 */
import type { LogFields, Logger } from '../../src/logger.js';

/** One recorded line. */
export interface RecordedLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields: LogFields;
}

/** A logger with debug on that keeps its lines in `lines`. */
export function recordingLogger(): Logger & { lines: RecordedLine[] } {
  const lines: RecordedLine[] = [];
  const make = (bound: LogFields): Logger => ({
    debug: (message, fields) => lines.push({ level: 'debug', message, fields: { ...bound, ...fields } }),
    info: (message, fields) => lines.push({ level: 'info', message, fields: { ...bound, ...fields } }),
    warn: (message, fields) => lines.push({ level: 'warn', message, fields: { ...bound, ...fields } }),
    error: (message, fields) => lines.push({ level: 'error', message, fields: { ...bound, ...fields } }),
    child: (fields) => make({ ...bound, ...fields }),
    isDebugEnabled: () => true,
  });
  return Object.assign(make({}), { lines });
}

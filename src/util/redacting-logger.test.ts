import { describe, expect, test } from 'vitest';
import { noopLogger, type LogFields, type Logger } from '../logger.js';
import { redactingLogger } from './redacting-logger.js';

function recorder(lines: Array<[string, LogFields | undefined]>, bound: LogFields = {}): Logger {
  const write = (message: string, fields?: LogFields) => lines.push([message, { ...bound, ...fields }]);
  return { debug: write, info: write, warn: write, error: write, child: (more) => recorder(lines, { ...bound, ...more }), isDebugEnabled: () => false };
}

describe('redactingLogger', () => {
  test('redacts URL credentials in the message, nested fields, errors and child bindings', () => {
    const lines: Array<[string, LogFields | undefined]> = [];
    const logger = redactingLogger(recorder(lines)).child({ target: 'http://u:pw@h/x' });
    logger.warn('failed: http://u:pw@h/x?api_key=k', { url: 'http://u:pw@h/x', nested: { list: ['https://h/?token=t'] }, error: new Error('at http://u:pw@h/') });
    expect(JSON.stringify(lines)).not.toMatch(/pw|api_key=k|token=t/);
    expect(lines[0]?.[0]).toBe('failed: http://••••@h/x?api_key=••••');
    expect(lines[0]?.[1]).toMatchObject({ target: 'http://••••@h/x', url: 'http://••••@h/x', nested: { list: ['https://h/?token=••••'] }, error: 'Error: at http://••••@h/' });
  });

  test('keeps the no-op logger and does not wrap twice; debug stays as the inner logger says', () => {
    expect(redactingLogger(noopLogger)).toBe(noopLogger);
    const once = redactingLogger(recorder([]));
    expect(redactingLogger(once)).toBe(once);
    expect(once.isDebugEnabled?.()).toBe(false);
  });

  test('a line of a level the inner logger drops is neither redacted nor passed on; the others are', () => {
    const lines: Array<[string, LogFields | undefined]> = [];
    let walked = 0;
    // A field whose walk is counted: redaction reads every field of a line it redacts.
    const fields = { get url(): string {
      walked++;
      return 'http://u:pw@h/';
    } };
    const logger = redactingLogger({ ...recorder(lines), isLevelEnabled: (level) => level !== 'info' });
    logger.info('request', fields);
    expect(walked).toBe(0);
    expect(lines).toEqual([]);
    expect(logger.isLevelEnabled?.('info')).toBe(false);
    logger.warn('slow', fields);
    expect(walked).toBe(1);
    expect(lines).toEqual([['slow', { url: 'http://••••@h/' }]]);
  });
});

/**
 * `structuredContent` checked against the tool's `outputSchema`, per server (`validateOutput`),
 * against a real server whose tools break their own schemas (structured-server.mjs): `error` turns
 * the result into an `isError` one naming each problem by its path, `warn` logs the same and passes
 * the result on, `off` does not look; a conforming result passes untouched in every mode.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MultiServerClient } from '../../src/client/multi-server-client.js';
import { FIXTURES } from '../helpers/fixtures.js';
import { recordingLogger } from '../helpers/recording-logger.js';

const SERVER = `${FIXTURES}/structured-server.mjs`;
const entry = (validateOutput?: string): Record<string, unknown> => ({ command: process.execPath, args: [SERVER], prefix: validateOutput ?? 'default', ...(validateOutput === undefined ? {} : { validateOutput }) });

const logger = recordingLogger();
let client: MultiServerClient;
beforeAll(async () => {
  client = await MultiServerClient.connect({ naming: 'prefix', mcpServers: { strict: entry('error'), loose: entry('warn'), quiet: entry('off'), plain: entry() } }, { logger });
});
afterAll(async () => {
  await client?.close();
});

function text(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((item) => item.text ?? '').join('');
}

describe('validateOutput: error', () => {
  test('a mismatch becomes an isError result with the path of each problem', async () => {
    const result = await client.callTool('error__forecast', {});
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(text(result)).toContain('does not match its outputSchema');
    expect(text(result)).toContain('`structuredContent.temp` must be of type number');
    expect(text(result)).toContain('`structuredContent.city` is required but missing');
    expect(text(result)).toContain('`structuredContent.wind.speed` must be of type number');
  });

  test('a missing structuredContent is reported too', async () => {
    const result = await client.callTool('error__bare', {});
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('`structuredContent` is missing, but the tool declares an outputSchema');
  });

  test('a conforming result passes', async () => {
    const result = await client.callTool('error__good', {});
    expect(result).toMatchObject({ isError: false, structuredContent: { temp: 21, city: 'Oslo' } });
  });
});

describe.each(['warn', 'default'])('validateOutput: %s', (prefix) => {
  test('a mismatch is logged with its paths and the result passes on', async () => {
    const result = await client.callTool(`${prefix}__forecast`, {});
    expect(result).toMatchObject({ isError: false, structuredContent: { temp: 'warm' } });
    const line = logger.lines.find((candidate) => candidate.level === 'warn' && candidate.message.includes('outputSchema') && candidate.fields.tool === `${prefix}__forecast`);
    expect(line?.fields.problems).toContain('`structuredContent.temp` must be of type number');
  });
});

test('validateOutput: off does not look', async () => {
  const result = await client.callTool('off__forecast', {});
  expect(result).toMatchObject({ isError: false, structuredContent: { temp: 'warm' } });
  expect(logger.lines.some((line) => line.fields.tool === 'off__forecast' && line.message.includes('outputSchema'))).toBe(false);
});

test('a bad validateOutput value is a config error that names the field', async () => {
  await expect(MultiServerClient.connect({ mcpServers: { bad: { ...entry(), validateOutput: 'loud' } } })).rejects.toThrow(/validateOutput/);
});

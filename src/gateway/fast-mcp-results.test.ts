import { expect, test } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { stampModern } from './fast-mcp-results.js';

const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

/** The stamp as a spread of the result writes it (what the SDK's codec gives): the reference for the bytes. */
function spreadStamp(result: CallToolResult, serverInfo: unknown): Record<string, unknown> {
  const meta = result._meta;
  return { ...result, resultType: 'complete', _meta: typeof meta === 'object' && meta !== null ? { ...meta, [SERVER_INFO_KEY]: meta[SERVER_INFO_KEY] ?? serverInfo } : { [SERVER_INFO_KEY]: serverInfo } };
}

test('stampModern writes the same JSON as a spread of the result, with and without _meta, error or structured content', () => {
  const results: CallToolResult[] = [
    { content: [{ type: 'text', text: 'hi' }] },
    { content: [{ type: 'text', text: 'no' }], isError: true },
    { content: [], structuredContent: { n: 1 } },
    { content: [{ type: 'text', text: 'm' }], _meta: { trace: 'x' } },
    { content: [{ type: 'text', text: 'm' }], isError: true, structuredContent: { n: 2 }, _meta: { [SERVER_INFO_KEY]: { name: 'upstream', version: '9' } } },
  ];
  for (const result of results) {
    const stamped = stampModern(result);
    const serverInfo = (stamped._meta as Record<string, unknown>)[SERVER_INFO_KEY];
    expect(JSON.stringify(stamped)).toBe(JSON.stringify(spreadStamp(result, result._meta?.[SERVER_INFO_KEY] ?? serverInfo)));
  }
});

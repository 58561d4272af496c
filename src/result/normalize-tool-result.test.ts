import { expect, test } from 'vitest';
import { ErrorCode, isSwitchboardError } from '../errors.js';
import { normalizeToolResult } from './normalize-tool-result.js';

test('every item is kept, in order, with isError and structuredContent', () => {
  const raw = {
    content: [
      { type: 'text', text: 'a' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png', annotations: { audience: ['user'] } },
      { type: 'audio', data: 'BBBB', mimeType: 'audio/wav' },
      { type: 'resource', resource: { uri: 'memo://x', text: 't' } },
      { type: 'resource_link', uri: 'memo://y', name: 'y' },
    ],
    structuredContent: { n: 1 },
    isError: true,
    _meta: { trace: 'x' },
  };
  expect(normalizeToolResult(raw)).toEqual(raw);
});

test('missing content and isError default; 2024-10-07 toolResult becomes text', () => {
  expect(normalizeToolResult({})).toEqual({ isError: false, content: [] });
  expect(normalizeToolResult({ toolResult: { a: 1 } })).toEqual({ isError: false, content: [{ type: 'text', text: '{"a":1}' }] });
});

test('unknown content types become text that says so (nothing dropped silently)', () => {
  const result = normalizeToolResult({ content: [{ type: 'hologram', data: 'x' }] });
  expect(result.content).toEqual([{ type: 'text', text: '[content of unsupported type "hologram": {"type":"hologram","data":"x"}]' }]);
});

test.each([
  [null, 'the result is not an object'],
  [{ content: 'text' }, '`content` is not an array'],
  [{ content: [{ type: 'text' }] }, 'content[0].text is not a string'],
  [{ content: [{ type: 'image', data: 'x' }] }, 'content[0] (image) needs string `data` and `mimeType`'],
  [{ content: [{ type: 'resource', resource: {} }] }, 'content[0].resource needs a `uri`'],
  [{ content: [5] }, 'content[0] is not an object'],
])('invalid result %j is SERVER_REQUEST_FAILED', (raw, reason) => {
  try {
    normalizeToolResult(raw, 'srv');
    throw new Error('expected a throw');
  } catch (error) {
    expect(isSwitchboardError(error) && error.code).toBe(ErrorCode.ServerRequestFailed);
    expect((error as Error).message).toBe(`server "srv": invalid tool result: ${reason}`);
  }
});

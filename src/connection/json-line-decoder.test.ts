import { expect, test } from 'vitest';
import { JsonLineDecoder } from './json-line-decoder.js';

function feed(chunks: string[], decoder = new JsonLineDecoder()): string[] {
  const lines: string[] = [];
  for (const chunk of chunks) decoder.push(Buffer.from(chunk), (line) => lines.push(line));
  return lines;
}

test('splits lines across and within chunks', () => {
  expect(feed(['{"a":1}\n{"b"', ':2}\n', '{"c":3}\n{"d":4}\n{"e"', ':5', '}\n'])).toEqual(['{"a":1}', '{"b":2}', '{"c":3}', '{"d":4}', '{"e":5}']);
});

test('multi-byte characters split across chunks survive', () => {
  const bytes = Buffer.from('{"t":"héllo ✓"}\n');
  const decoder = new JsonLineDecoder();
  const lines: string[] = [];
  for (let index = 0; index < bytes.length; index++) decoder.push(bytes.subarray(index, index + 1), (line) => lines.push(line));
  expect(lines).toEqual(['{"t":"héllo ✓"}']);
});

test('a line over the limit is refused and the decoder recovers', () => {
  const decoder = new JsonLineDecoder(10);
  expect(() => feed(['x'.repeat(11)], decoder)).toThrow(/exceeded 10 bytes/);
  expect(decoder.pendingBytes).toBe(0);
  expect(feed(['ok\n'], decoder)).toEqual(['ok']);
});

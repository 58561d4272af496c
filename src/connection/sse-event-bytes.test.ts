import { expect, test } from 'vitest';
import { SseEventBytes } from './sse-event-bytes.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

test('an event counts until its blank line, across lines and chunks; the next one starts from zero', () => {
  const meter = new SseEventBytes();
  expect(meter.add(bytes('data: a\n'))).toBe(8);
  expect(meter.add(bytes('data: b\n'))).toBe(16);
  expect(meter.add(bytes('\ndata: c'))).toBe(7);
  expect(meter.add(bytes('\n\n'))).toBe(0);
});

test('CRLF endings count, also when a line ending or the blank line is split between chunks', () => {
  const meter = new SseEventBytes();
  expect(meter.add(bytes('data: a\r'))).toBe(8);
  // CRLF, then CR alone: an empty line, the end of the event.
  expect(meter.add(bytes('\n\r'))).toBe(0);
  expect(meter.add(bytes('\nid'))).toBe(2);
  const split = new SseEventBytes();
  expect(split.add(bytes('data: a\n'))).toBe(8);
  expect(split.add(bytes('\n'))).toBe(0);
});

test('short lines without a blank line keep adding up (the shape a per-line bound missed)', () => {
  const meter = new SseEventBytes();
  let size = 0;
  for (let index = 0; index < 100; index++) size = meter.add(bytes('data: xxxxxxxxx\n'));
  expect(size).toBe(1_600);
});

test('CR alone ends a line as the SSE format allows: events of CR-ended lines end at their blank line', () => {
  const meter = new SseEventBytes();
  let size = 0;
  for (let index = 0; index < 100; index++) size = meter.add(bytes('data: x\r\r'));
  expect(size).toBe(0);
  expect(meter.add(bytes('data: y\r'))).toBe(8);
  expect(meter.add(bytes('\n\r\n'))).toBe(0);
});

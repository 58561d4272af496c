import { expect, test } from 'vitest';
import { parseTraceparent, traceContextFromMeta, traceMeta } from './trace-context.js';

const VALID = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

test('parses a valid traceparent', () => {
  expect(parseTraceparent(VALID)).toEqual({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 });
});

test.each([
  ['an all-zero trace id', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`],
  ['an all-zero span id', `00-4bf92f3577b34da6a3ce929d0e0e4736-${'0'.repeat(16)}-01`],
  ['version ff', 'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
  ['upper case', VALID.toUpperCase()],
  ['trailing fields on version 00', `${VALID}-extra`],
  ['a short trace id', '00-4bf92f35-00f067aa0ba902b7-01'],
])('refuses %s', (_label, value) => {
  expect(parseTraceparent(value)).toBeUndefined();
});

test('keeps tracestate and baggage within their bounds only', () => {
  expect(traceContextFromMeta({ traceparent: VALID, tracestate: 'a=1', baggage: 'k=v' })).toEqual({ traceparent: VALID, tracestate: 'a=1', baggage: 'k=v' });
  expect(traceContextFromMeta({ traceparent: VALID, tracestate: 'x'.repeat(513), baggage: 'k'.repeat(8_193) })).toEqual({ traceparent: VALID });
  expect(traceContextFromMeta({ traceparent: 'nonsense' })).toBeUndefined();
});

test('without a span the incoming context passes unchanged; with neither there is none', () => {
  expect(traceMeta(undefined, { traceparent: VALID, baggage: 'k=v' })).toEqual({ traceparent: VALID, baggage: 'k=v' });
  expect(traceMeta(undefined, undefined)).toBeUndefined();
});

import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterEach, expect, test, vi } from 'vitest';
import { RESPONSE_STREAM_LINGER_MS, RequestStreams } from './request-streams.js';

const request = (id: number | string): JSONRPCMessage => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'hang' } }) as JSONRPCMessage;
const cancelled = (requestId: number | string): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'timed out' } }) as JSONRPCMessage;
const response = (id: number | string): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: {} }) as JSONRPCMessage;

afterEach(() => {
  vi.useRealTimers();
});

test('notifications/cancelled aborts the stream of its request, after the notification has left', async () => {
  const streams = new RequestStreams();
  const signal = streams.outbound(request(1), undefined)?.requestSignal;
  const other = streams.outbound(request(2), undefined)?.requestSignal;
  expect(streams.outbound(cancelled(1), undefined)).toBeUndefined();
  expect(signal?.aborted).toBe(false);
  await new Promise((resolve) => setImmediate(resolve));
  expect(signal?.aborted).toBe(true);
  expect(other?.aborted).toBe(false);
  expect(streams.size).toBe(1);
});

test('a stream still open RESPONSE_STREAM_LINGER_MS after its response is aborted', () => {
  vi.useFakeTimers();
  const streams = new RequestStreams();
  const signal = streams.outbound(request('a'), undefined)?.requestSignal;
  streams.inbound(response('a'));
  vi.advanceTimersByTime(RESPONSE_STREAM_LINGER_MS - 1);
  expect(signal?.aborted).toBe(false);
  vi.advanceTimersByTime(1);
  expect(signal?.aborted).toBe(true);
  expect(streams.size).toBe(0);
});

test("the SDK's own signal is joined, and its abort (a 2026-07-28 cancel) forgets the request", () => {
  const streams = new RequestStreams();
  const sdk = new AbortController();
  const signal = streams.outbound(request(7), { requestSignal: sdk.signal, relatedRequestId: 3 });
  expect(signal?.relatedRequestId).toBe(3);
  sdk.abort();
  expect(signal?.requestSignal?.aborted).toBe(true);
  expect(streams.size).toBe(0);
});

test('notifications and server requests pass untouched; close aborts every open stream', () => {
  const streams = new RequestStreams();
  const options = { relatedRequestId: 1 };
  expect(streams.outbound({ jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage, options)).toBe(options);
  const signal = streams.outbound(request(9), undefined)?.requestSignal;
  streams.close();
  expect(signal?.aborted).toBe(true);
  expect(streams.size).toBe(0);
});

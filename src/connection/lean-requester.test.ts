import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { expect, test } from 'vitest';
import { LeanRequester } from './lean-requester.js';

/** A requester whose messages land in `sent`; answers are fed back with `intercept`. */
function requester(): { requester: LeanRequester; sent: Array<{ id?: string; method: string; params?: { requestId?: string; progressToken?: string; _meta?: { progressToken?: string } } }> } {
  const sent: Array<{ id?: string; method: string }> = [];
  const made = new LeanRequester((message: JSONRPCMessage) => void sent.push(message as unknown as { id?: string; method: string }), 'fixture', (error) => new Error(error.message));
  return { requester: made, sent };
}

test('an answer settles the request whose id it carries, and only an id this requester made', async () => {
  const { requester: made, sent } = requester();
  const first = made.request('tools/call', { name: 'a' }, { timeoutMs: 60_000 });
  const second = made.request('tools/call', { name: 'b' }, { timeoutMs: 60_000 });
  const [one, two] = sent.map((message) => message.id as string) as [string, string];
  expect(one).toMatch(/^sb\d+$/);
  // The same number written another way, a foreign id, a number: none of them is ours.
  expect(made.intercept({ jsonrpc: '2.0', id: `sb0${one.slice(2)}`, result: {} } as JSONRPCMessage)).toBe(false);
  expect(made.intercept({ jsonrpc: '2.0', id: 'other-7', result: {} } as JSONRPCMessage)).toBe(false);
  expect(made.intercept({ jsonrpc: '2.0', id: 7, result: {} } as JSONRPCMessage)).toBe(false);
  expect(made.inFlight).toBe(2);
  expect(made.intercept({ jsonrpc: '2.0', id: two, result: { b: true } } as JSONRPCMessage)).toBe(true);
  expect(made.intercept({ jsonrpc: '2.0', id: two, result: { b: true } } as JSONRPCMessage)).toBe(false);
  await expect(second).resolves.toEqual({ b: true });
  expect(made.intercept({ jsonrpc: '2.0', id: one, result: { a: true } } as JSONRPCMessage)).toBe(true);
  await expect(first).resolves.toEqual({ a: true });
  expect(made.inFlight).toBe(0);
});

test('a long request among thousands of short ones is still answered, and aborted by its signal', async () => {
  const { requester: made, sent } = requester();
  const controller = new AbortController();
  const long = made.request('tools/call', { name: 'long' }, { timeoutMs: 60_000, signal: controller.signal });
  const longId = sent[0]?.id as string;
  for (let index = 0; index < 3000; index++) {
    const short = made.request('ping', undefined, { timeoutMs: 60_000 });
    made.intercept({ jsonrpc: '2.0', id: sent.at(-1)?.id as string, result: {} } as JSONRPCMessage);
    await short;
  }
  expect(made.inFlight).toBe(1);
  controller.abort(new Error('stop'));
  await expect(long).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
  expect(sent.at(-1)).toMatchObject({ method: 'notifications/cancelled', params: { requestId: longId } });
  expect(made.inFlight).toBe(0);
});

test('a request is sent as lone only when nothing else of the requester is in flight', async () => {
  const lone: boolean[] = [];
  const made = new LeanRequester((_message: JSONRPCMessage, isLone: boolean) => void lone.push(isLone), 'fixture', (error) => new Error(error.message));
  const first = made.request('tools/call', { name: 'a' }, { timeoutMs: 60_000 });
  const second = made.request('tools/call', { name: 'b' }, { timeoutMs: 60_000 });
  made.intercept({ jsonrpc: '2.0', id: 'sb1', result: {} } as JSONRPCMessage);
  made.intercept({ jsonrpc: '2.0', id: 'sb2', result: {} } as JSONRPCMessage);
  await Promise.all([first, second]);
  const third = made.request('ping', undefined, { timeoutMs: 60_000 });
  made.intercept({ jsonrpc: '2.0', id: 'sb3', result: {} } as JSONRPCMessage);
  await third;
  expect(lone).toEqual([true, false, true]);
});

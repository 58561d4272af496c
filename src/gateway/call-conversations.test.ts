import { once } from 'node:events';
import { expect, test } from 'vitest';
import type { ToolResult } from '../result/tool-result.js';
import { CallConversations, Conversation } from './call-conversations.js';

const ok: ToolResult = { isError: false, content: [{ type: 'text', text: 'done' }] };

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

test('a question becomes an ask step; the answers resume the call, which then ends', async () => {
  const conversation = new Conversation('u1');
  const upstream = deferred<ToolResult>();
  let ended = 0;
  conversation.run(upstream.promise, new AbortController().signal, () => ended++);
  const answer = conversation.ask('elicitation/create', { message: 'Name?' }, new AbortController().signal);
  const sampled = conversation.ask('sampling/createMessage', { maxTokens: 5 }, new AbortController().signal);
  expect(await conversation.next()).toEqual({
    kind: 'ask',
    questions: [
      { key: 'q1', method: 'elicitation/create', params: { message: 'Name?' } },
      { key: 'q2', method: 'sampling/createMessage', params: { maxTokens: 5 } },
    ],
  });
  conversation.answer({ q1: { action: 'accept', content: { name: 'Ada' } }, q2: { role: 'assistant', content: { type: 'text', text: 'hi' } } });
  expect(await answer).toEqual({ action: 'accept', content: { name: 'Ada' } });
  expect(await sampled).toMatchObject({ role: 'assistant' });
  upstream.resolve(ok);
  expect(await conversation.next()).toEqual({ kind: 'done', result: ok });
  expect(ended).toBe(1);
});

test('an unanswered elicitation counts as cancelled; an unanswered sampling request fails', async () => {
  const conversation = new Conversation('u1');
  const elicitation = conversation.ask('elicitation/create', {}, new AbortController().signal);
  const sampling = conversation.ask('sampling/createMessage', {}, new AbortController().signal);
  expect((await conversation.next()).kind).toBe('ask');
  conversation.answer({ q2: 'not an object' });
  expect(await elicitation).toEqual({ action: 'cancel' });
  await expect(sampling).rejects.toThrow(/did not answer the sampling request/);
});

test('a failed call is a failed step, and questions still open fail with it', async () => {
  const conversation = new Conversation('u1');
  const upstream = deferred<ToolResult>();
  conversation.run(upstream.promise.then(() => Promise.reject(new Error('upstream died'))), new AbortController().signal, () => {});
  const question = conversation.ask('elicitation/create', {}, new AbortController().signal);
  expect((await conversation.next()).kind).toBe('ask');
  upstream.resolve(ok);
  const step = await conversation.next();
  expect(step).toMatchObject({ kind: 'failed', error: expect.objectContaining({ message: 'upstream died' }) });
  await expect(question).rejects.toThrow(/the call ended/);
});

test('parked conversations are found by state and user, once; one never resumed is cancelled at its deadline', async () => {
  const conversations = new CallConversations(50);
  const first = new Conversation('u1');
  conversations.park(first);
  expect(conversations.take(first.id, 'u2')).toBeUndefined();
  expect(conversations.take('forged', 'u1')).toBeUndefined();
  expect(conversations.take(first.id, 'u1')).toBe(first);
  expect(conversations.take(first.id, 'u1')).toBeUndefined();

  const abandoned = new Conversation('u1');
  conversations.park(abandoned);
  expect(conversations.size).toBe(1);
  await once(abandoned.abort.signal, 'abort');
  expect(String(abandoned.abort.signal.reason)).toMatch(/did not come back with its answers/);
  expect(conversations.size).toBe(0);

  const atClose = new Conversation('u1');
  conversations.park(atClose);
  conversations.close();
  expect(atClose.abort.signal.aborted).toBe(true);
  expect(conversations.size).toBe(0);
});

test('in a cluster a conversation id starts with its replica id (it routes a retry there); the user still binds it', () => {
  const owner = '0b6f3c1e-8a51-4c7e-9a47-5f0d2c9e7a10';
  const conversations = new CallConversations(undefined, owner);
  const conversation = new Conversation('u1', conversations.idPrefix);
  expect(conversation.id.startsWith(`${owner}.`)).toBe(true);
  expect(conversation.id.length).toBeGreaterThan(owner.length + 20);
  conversations.park(conversation);
  expect(conversations.take(conversation.id, 'u2')).toBeUndefined();
  expect(conversations.take(conversation.id, 'u1')).toBe(conversation);
  expect(new CallConversations().idPrefix).toBe('');
  conversations.close();
});

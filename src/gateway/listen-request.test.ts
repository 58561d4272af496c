import { expect, test } from 'vitest';
import { isListenRequest } from './listen-request.js';

const listen = { jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true } } };
const post = (body: string): Request => new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body });

test('a listen request is told apart by its parsed body, or by a copy of the body served in process', async () => {
  expect(await isListenRequest(post('{}'), { value: listen }, 1_000)).toBe(true);
  expect(await isListenRequest(post('{}'), { value: { ...listen, method: 'tools/list' } }, 1_000)).toBe(false);
  const request = post(JSON.stringify(listen));
  expect(await isListenRequest(request, undefined, 1_000)).toBe(true);
  // The body is still there for the SDK.
  expect(await request.json()).toEqual(listen);
});

test('no listen request: a GET, a body that is not declared JSON, a batch, a body that is not JSON or over the limit', async () => {
  expect(await isListenRequest(new Request('http://127.0.0.1/mcp'), undefined, 1_000)).toBe(false);
  expect(await isListenRequest(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(listen) }), undefined, 1_000)).toBe(false);
  expect(await isListenRequest(post(JSON.stringify([listen])), undefined, 1_000)).toBe(false);
  expect(await isListenRequest(post('{"method":"subscriptions/listen"'), undefined, 1_000)).toBe(false);
  const large = post(JSON.stringify({ ...listen, padding: 'x'.repeat(2_000) }));
  expect(await isListenRequest(large, undefined, 1_000)).toBe(false);
  expect((await large.text()).length).toBeGreaterThan(2_000);
});

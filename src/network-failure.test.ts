import { expect, test } from 'vitest';
import { networkFailureHint, networkFailureInSseMessage, networkFailureOf } from './network-failure.js';

const refused = (address: string, port: number): Error => Object.assign(new Error(`connect ECONNREFUSED ${address}:${port}`), { code: 'ECONNREFUSED', address, port });

test('a Node code anywhere in the causes (and the SDK data.cause), with the address tried', () => {
  const fetchError = new TypeError('fetch failed', { cause: refused('127.0.0.1', 8080) });
  expect(networkFailureOf(fetchError)).toEqual({ code: 'ECONNREFUSED', reason: 'ECONNREFUSED', address: '127.0.0.1:8080' });
  const sdkError = Object.assign(new Error('probe failed'), { code: 'ERA_NEGOTIATION_FAILED', data: { cause: fetchError } });
  expect(networkFailureOf(sdkError)).toMatchObject({ code: 'ECONNREFUSED', address: '127.0.0.1:8080' });
  const both = Object.assign(new AggregateError([refused('::1', 9), refused('127.0.0.1', 9)]), { code: 'ECONNREFUSED' });
  expect(networkFailureOf(new TypeError('fetch failed', { cause: both }))).toMatchObject({ code: 'ECONNREFUSED', address: '[::1]:9' });
});

test('fetch failing without a code gives its innermost reason ("bad port")', () => {
  expect(networkFailureOf(new TypeError('fetch failed', { cause: new Error('bad port') }))).toEqual({ reason: 'bad port' });
  expect(networkFailureHint({ reason: 'bad port' })).toBe('check the URL and that the server is running');
});

test('not network failures: SDK codes that start with E, errors answered by a server', () => {
  expect(networkFailureOf(Object.assign(new Error('x'), { code: 'ERA_NEGOTIATION_FAILED' }))).toBeUndefined();
  expect(networkFailureOf(Object.assign(new Error('fetch failed: connect ECONNREFUSED 10.0.0.1:80'), { code: -32603 }))).toBeUndefined();
});

test('the text of a legacy SSE error', () => {
  expect(networkFailureInSseMessage('SSE error: TypeError: fetch failed: connect ECONNREFUSED 127.0.0.1:59999')).toEqual({ code: 'ECONNREFUSED', reason: 'ECONNREFUSED', address: '127.0.0.1:59999' });
  expect(networkFailureInSseMessage('SSE error: TypeError: fetch failed: getaddrinfo ENOTFOUND nowhere.invalid')).toEqual({ code: 'ENOTFOUND', reason: 'ENOTFOUND', address: 'nowhere.invalid' });
  expect(networkFailureInSseMessage('SSE error: Non-200 status code (404)')).toBeUndefined();
  expect(networkFailureHint({ code: 'ECONNREFUSED', reason: 'ECONNREFUSED', address: '127.0.0.1:59999' })).toBe('nothing is listening on 127.0.0.1:59999; is the server running?');
});

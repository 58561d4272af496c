/**
 * Dormant 2025-era sessions (src/gateway/legacy-session-engine.ts): an idle session lets its SDK
 * transport and server go and gets them back for the next request that needs them, in the state the
 * client's `initialize` left — the same answers as before, the same client identity, one rebuild for
 * concurrent requests, the fast path also while dormant; `DELETE` still ends it; a session with a
 * subscription stays awake. A plain `initialize` opens a session dormant from the start (see
 * lean-session.test.ts). Over a real gateway and the kitchen-sink server.
 */

import { afterAll, beforeAll, expect, test } from 'vitest';
import { KITCHEN_SINK } from '../../helpers/fixtures.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';

let gateway: TestGateway;

const ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const FAST_ID = /^f[0-9a-f]{8}-/;
const CLIENT_INFO = { name: 'dormant-test', version: '3.1' };

async function post(headers: Record<string, string>, body: unknown, method = 'POST'): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(gateway.mcpUrl, { method, headers: { ...ACCEPT, authorization: `Bearer ${gateway.adminToken}`, ...headers }, ...(method === 'POST' ? { body: JSON.stringify(body) } : {}), signal: AbortSignal.timeout(20_000) });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

async function openSession(): Promise<Record<string, string>> {
  const opened = await post({}, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: { roots: {} }, clientInfo: CLIENT_INFO } });
  expect(opened.status).toBe(200);
  const headers = { 'mcp-session-id': opened.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': '2025-03-26' };
  await post(headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
  return headers;
}

function sessionOf(headers: Record<string, string>) {
  const session = gateway.running.gateway.mcp.session(headers['mcp-session-id'] ?? '');
  if (session === undefined) throw new Error('no such session');
  return session;
}

/** Well past the dormancy delay, as the endpoint's sweep would see it. */
const later = (): number => Date.now() + 60_000;

beforeAll(async () => {
  gateway = await startTestGateway({ servers: { sink: { command: process.execPath, args: [KITCHEN_SINK] } } });
}, 30_000);

afterAll(async () => {
  await gateway?.close();
});

test('a dormant session answers as before, with the client identity of its initialize, and the fast path comes back', async () => {
  const headers = await openSession();
  const general = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' }, _meta: {} } };
  const before = await post(headers, general);
  expect(sessionOf(headers).server).toBeDefined();
  const listed = await post(headers, { jsonrpc: '2.0', id: 6, method: 'prompts/list', params: {} });
  const session = sessionOf(headers);
  // Not idle long enough yet: it stays awake.
  expect(session.sleepIfIdle(Date.now())).toBe(false);
  expect(session.sleepIfIdle(later())).toBe(true);
  expect(session.server).toBeUndefined();

  // The fast path serves a dormant session as it is; the general path wakes it.
  const dormant = await post(headers, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } });
  expect(dormant.headers.get('x-request-id')).toMatch(FAST_ID);
  expect(dormant.text).toBe(before.text);
  expect(session.server).toBeUndefined();
  const woken = await post(headers, general);
  expect(woken.headers.get('x-request-id')).not.toMatch(FAST_ID);
  expect(woken.text).toBe(before.text);
  expect(session.server?.getClientVersion()).toEqual(CLIENT_INFO);
  expect(session.server?.getClientCapabilities()).toEqual({ roots: {} });
  expect(session.server?.getNegotiatedProtocolVersion()).toBe('2025-03-26');
  expect((await post(headers, { jsonrpc: '2.0', id: 6, method: 'prompts/list', params: {} })).text).toBe(listed.text);
  const fast = await post(headers, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } });
  expect(fast.headers.get('x-request-id')).toMatch(FAST_ID);
  expect(fast.text).toBe(before.text);
});

test('concurrent requests wake a dormant session once; DELETE ends a dormant session', async () => {
  const headers = await openSession();
  const session = sessionOf(headers);
  // Opened dormant: nothing built yet.
  expect(session.server).toBeUndefined();
  expect(session.sleepIfIdle(later())).toBe(false);
  const answers = await Promise.all([1, 2, 3].map((id) => post(headers, { jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: {} } })));
  for (const answer of answers) expect(answer.status).toBe(200);
  expect(new Set(answers.map((answer) => answer.text.replace(/"id":\d/, ''))).size).toBe(1);
  const server = session.server;
  expect(server).toBeDefined();
  expect(session.sleepIfIdle(later())).toBe(true);
  const count = gateway.running.gateway.mcp.sessionCount;
  const deleted = await post(headers, undefined, 'DELETE');
  expect(deleted.status).toBe(200);
  expect(gateway.running.gateway.mcp.sessionCount).toBe(count - 1);
  expect((await post(headers, { jsonrpc: '2.0', id: 9, method: 'ping' })).status).toBe(404);
});

test('a session that set a log level stays awake (only a live server delivers its messages)', async () => {
  const headers = await openSession();
  const set = await post(headers, { jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'info' } });
  expect(set.status).toBe(200);
  expect(sessionOf(headers).sleepIfIdle(later())).toBe(false);
  expect(sessionOf(headers).server).toBeDefined();
});

/**
 * 2025-era sessions opened without an SDK server (src/gateway/lean-initialize.ts, issue 17): a plain
 * `initialize` and the `notifications/initialized` after it are answered by the gateway, so the session
 * starts dormant; the fast path serves it as it is (the same answers as once it is awake); what needs a
 * server (a general-path call, the GET stream) builds one with the client's handshake; `DELETE` and the
 * idle sweep end a session that never had one, and its id resumes it; an `initialize` the lean path does not take still opens
 * a session through the SDK. Over a real gateway and the kitchen-sink server.
 */

import { afterAll, beforeAll, expect, test } from 'vitest';
import { KITCHEN_SINK } from '../../helpers/fixtures.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';

let gateway: TestGateway;

const ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const FAST_ID = /^f[0-9a-f]{8}-/;
const CLIENT_INFO = { name: 'lean-test', version: '2.0', title: 'Lean' };
const VERSION = '2025-06-18';

async function post(headers: Record<string, string>, body: unknown, method = 'POST'): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(gateway.mcpUrl, { method, headers: { ...ACCEPT, authorization: `Bearer ${gateway.adminToken}`, ...headers }, ...(method === 'POST' ? { body: JSON.stringify(body) } : {}), signal: AbortSignal.timeout(20_000) });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const initialize = (protocolVersion = VERSION): unknown => ({ jsonrpc: '2.0', id: 'init-1', method: 'initialize', params: { protocolVersion, capabilities: { roots: {} }, clientInfo: CLIENT_INFO } });

async function openSession(protocolVersion = VERSION): Promise<{ headers: Record<string, string>; answer: string }> {
  const opened = await post({}, initialize(protocolVersion));
  expect(opened.status).toBe(200);
  const headers = { 'mcp-session-id': opened.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': VERSION };
  const notified = await post(headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
  expect(notified.status).toBe(202);
  return { headers, answer: opened.text };
}

function sessionOf(headers: Record<string, string>) {
  const session = gateway.running.gateway.mcp.session(headers['mcp-session-id'] ?? '');
  if (session === undefined) throw new Error('no such session');
  return session;
}

const call = (name: string, args: Record<string, unknown>, meta?: Record<string, unknown>): unknown => ({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) } });

beforeAll(async () => {
  gateway = await startTestGateway({ servers: { sink: { command: process.execPath, args: [KITCHEN_SINK] } } });
}, 30_000);

afterAll(async () => {
  await gateway?.close();
});

test('a plain initialize opens a dormant session; the fast path serves it; what needs a server builds one with the handshake', async () => {
  const { headers, answer } = await openSession();
  const message = JSON.parse(answer.replace(/^event: message\ndata: /, '')) as { id: unknown; result: { protocolVersion: string; serverInfo: { name: string }; capabilities: Record<string, unknown> } };
  expect(message.id).toBe('init-1');
  expect(message.result.protocolVersion).toBe(VERSION);
  expect(message.result.serverInfo.name).toBe('mcp-switchboard');
  expect(Object.keys(message.result.capabilities)).toEqual(expect.arrayContaining(['tools', 'resources', 'prompts', 'logging', 'tasks']));
  const session = sessionOf(headers);
  expect(session.server).toBeUndefined();
  expect(session.clientCapabilities).toEqual({ roots: {} });

  const echoed = await post(headers, call('echo', { message: 'hi' }));
  const summed = await post(headers, call('add', { a: 2, b: 3 }));
  const listed = await post(headers, { jsonrpc: '2.0', id: 4, method: 'tools/list' });
  for (const answered of [echoed, summed, listed]) expect(answered.headers.get('x-request-id')).toMatch(FAST_ID);
  expect(summed.text).toContain('"structuredContent":{"sum":5}');
  expect(session.server).toBeUndefined();

  // A general-path request builds the server, from what the client said in initialize.
  const general = await post(headers, call('echo', { message: 'hi' }, {}));
  expect(general.headers.get('x-request-id')).not.toMatch(FAST_ID);
  expect(general.text).toBe(echoed.text);
  expect(session.server?.getClientVersion()).toEqual(CLIENT_INFO);
  expect(session.server?.getClientCapabilities()).toEqual({ roots: {} });
  expect(session.server?.getNegotiatedProtocolVersion()).toBe(VERSION);
  // Awake, the fast path answers as it did while dormant.
  expect((await post(headers, call('add', { a: 2, b: 3 }))).text).toBe(summed.text);
  expect((await post(headers, { jsonrpc: '2.0', id: 4, method: 'tools/list' })).text).toBe(listed.text);
});

test('the GET stream wakes a dormant session; DELETE and the idle sweep end sessions that never had a server; its id resumes it', async () => {
  const streamed = await openSession();
  const abort = new AbortController();
  const stream = await fetch(gateway.mcpUrl, { headers: { accept: 'text/event-stream', authorization: `Bearer ${gateway.adminToken}`, ...streamed.headers }, signal: abort.signal });
  expect(stream.status).toBe(200);
  expect(sessionOf(streamed.headers).server).toBeDefined();
  abort.abort();
  await stream.body?.cancel().catch(() => {});

  const deleted = await openSession();
  const count = gateway.running.gateway.mcp.sessionCount;
  expect((await post(deleted.headers, undefined, 'DELETE')).status).toBe(200);
  expect(gateway.running.gateway.mcp.sessionCount).toBe(count - 1);
  expect((await post(deleted.headers, { jsonrpc: '2.0', id: 9, method: 'ping' })).status).toBe(404);

  const idle = await openSession();
  expect(sessionOf(idle.headers).server).toBeUndefined();
  expect(gateway.running.gateway.mcp.closeIdleSessions(Date.now() + 24 * 3_600_000)).toBeGreaterThanOrEqual(1);
  expect(gateway.running.gateway.mcp.session(idle.headers['mcp-session-id'] ?? '')).toBeUndefined();

  // Its id resumes it (through the SDK, from the handshake sealed in the id), then the fast path serves it.
  const resumed = await post(idle.headers, call('echo', { message: 'back' }));
  expect(resumed.status).toBe(200);
  const session = sessionOf(idle.headers);
  expect(session.server?.getClientVersion()).toEqual(CLIENT_INFO);
  expect(session.server?.getNegotiatedProtocolVersion()).toBe(VERSION);
  const fast = await post(idle.headers, call('echo', { message: 'back' }));
  expect(fast.headers.get('x-request-id')).toMatch(FAST_ID);
  expect(fast.text).toBe(resumed.text);
});

test('an initialize the lean path leaves to the SDK still opens a session, awake', async () => {
  // An unknown version: the SDK answers with its own latest 2025-era one.
  const { headers, answer } = await openSession('2099-01-01');
  expect(answer).toContain('"protocolVersion":"2025-11-25"');
  expect(sessionOf(headers).server?.getNegotiatedProtocolVersion()).toBe('2025-11-25');
  expect((await post(headers, call('echo', { message: 'hi' }))).status).toBe(200);
});

/**
 * The fast path of `/mcp` (src/gateway/fast-mcp-path.ts) against the general path, over a real
 * gateway and the kitchen-sink server: the same answers, byte for byte but the request id, for the
 * requests it takes; the general path for the ones it leaves; cancellation reaches the upstream call;
 * the token and Host checks still refuse.
 */

import http from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { FIXTURES, KITCHEN_SINK } from '../../helpers/fixtures.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';

let gateway: TestGateway;
let session: Record<string, string>;

const ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
/** Fast-path request ids start with `f` and 8 hex digits; the app's are 8 hex digits. */
const FAST_ID = /^f[0-9a-f]{8}-/;

async function post(headers: Record<string, string>, body: unknown, signal?: AbortSignal, on: TestGateway = gateway): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(on.mcpUrl, { method: 'POST', headers: { ...ACCEPT, authorization: `Bearer ${on.adminToken}`, ...headers }, body: JSON.stringify(body), signal: signal ?? AbortSignal.timeout(20_000) });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

beforeAll(async () => {
  gateway = await startTestGateway({ servers: { sink: { command: process.execPath, args: [KITCHEN_SINK] } } });
  session = await openSession(gateway);
}, 30_000);

afterAll(async () => {
  await gateway?.close();
});

test('a 2025 tools/call, tools/list and ping on the fast path answer exactly as the general path does', async () => {
  // The general path takes a request with `_meta` (the fast path leaves those); the answer must not differ.
  for (const [method, params] of [
    ['tools/call', { name: 'echo', arguments: { message: 'hi' } }],
    ['tools/call', { name: 'fail', arguments: {} }],
    ['tools/list', {}],
    ['ping', {}],
  ] as const) {
    const fast = await post(session, { jsonrpc: '2.0', id: 7, method, params });
    const general = await post(session, { jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: {} } });
    expect(fast.headers.get('x-request-id')).toMatch(FAST_ID);
    expect(general.headers.get('x-request-id')).not.toMatch(FAST_ID);
    expect(fast.status).toBe(general.status);
    expect(fast.headers.get('content-type')).toBe(general.headers.get('content-type'));
    expect(fast.headers.get('mcp-session-id')).toBe(session['mcp-session-id']);
    // Every header the general path sends, with the same value (the framing may differ: a known length or chunks).
    expect(headerSet(fast.headers)).toEqual(headerSet(general.headers));
    expect(fast.text).toBe(general.text);
  }
});

/** Headers but the per-request ones and the body framing, as `name: value` lines. */
function headerSet(headers: Headers): string[] {
  const varying = new Set(['date', 'x-request-id', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);
  return [...headers].filter(([name]) => !varying.has(name)).map(([name, value]) => `${name}: ${value}`).sort();
}

test('the fast path\'s tools/list follows the catalog: a server added to the user\'s registry entries is listed at once', async () => {
  const own = await startTestGateway({ servers: { sink: { command: process.execPath, args: [KITCHEN_SINK] } } });
  try {
    const headers = await openSession(own);
    const names = async (): Promise<string[]> => {
      const listed = await post(headers, { jsonrpc: '2.0', id: 'list', method: 'tools/list', params: {} }, undefined, own);
      expect(listed.headers.get('x-request-id')).toMatch(FAST_ID);
      const data = listed.text.split('\n').find((line) => line.startsWith('data: ')) ?? '';
      return (JSON.parse(data.slice(6)) as { result: { tools: Array<{ name: string }> } }).result.tools.map((tool) => tool.name);
    };
    const before = await names();
    expect(await names()).toEqual(before);
    expect(before).not.toContain('tool_1');
    await own.registry.servers.add('admin', 'many', { command: process.execPath, args: [`${FIXTURES}/many-tools-server.mjs`, '--count', '3'] });
    const deadline = Date.now() + 15_000;
    let after = await names();
    while (!after.includes('tool_1') && Date.now() < deadline) after = await names();
    expect(after).toEqual(expect.arrayContaining(['tool_0', 'tool_1', 'tool_2']));
    expect(after).toEqual(expect.arrayContaining(before));
  } finally {
    await own.close();
  }
}, 30_000);

test('an unknown tool, a batch and a progress token go to the general path', async () => {
  const unknown = await post(session, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'nope', arguments: {} } });
  expect(unknown.headers.get('x-request-id')).not.toMatch(FAST_ID);
  expect(unknown.text).toContain('There is no tool named');
  const progress = await post(session, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'sleep', arguments: { ms: 120 }, _meta: { progressToken: 'p' } } });
  expect(progress.headers.get('x-request-id')).not.toMatch(FAST_ID);
  expect(progress.text).toContain('notifications/progress');
});

/** Opens a 2025 session on `on`; returns its headers. */
async function openSession(on: TestGateway): Promise<Record<string, string>> {
  const opened = await post({}, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fast-path-test', version: '1' } } }, undefined, on);
  const headers = { 'mcp-session-id': opened.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': '2025-06-18' };
  await post(headers, { jsonrpc: '2.0', method: 'notifications/initialized' }, undefined, on);
  return headers;
}

/** A 15 s call on the fast path, then its cancellation: the call ends at once, upstream too, without an answer. */
async function expectCancellable(on: TestGateway, headers: Record<string, string>): Promise<void> {
  const call = post(headers, { jsonrpc: '2.0', id: 'long', method: 'tools/call', params: { name: 'sleep', arguments: { ms: 15_000 } } }, undefined, on);
  // The call is running once the gateway tracks it.
  const deadline = Date.now() + 10_000;
  while (on.running.gateway.calls.size === 0) {
    if (Date.now() > deadline) throw new Error('the call did not start');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const cancelledAt = Date.now();
  const cancelled = await post(headers, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'long', reason: 'test' } }, undefined, on);
  expect(cancelled.status).toBe(202);
  expect(cancelled.headers.get('x-request-id')).toMatch(FAST_ID);
  const answer = await call;
  // The 15 s call ended at the cancellation, not at its end.
  expect(Date.now() - cancelledAt).toBeLessThan(8_000);
  expect(answer.headers.get('x-request-id')).toMatch(FAST_ID);
  expect(answer.text).toBe('');
  expect(on.running.gateway.calls.size).toBe(0);
}

test('notifications/cancelled of a fast-path call cancels it upstream; the call gets no answer', async () => {
  await expectCancellable(gateway, session);
});

test('two running calls with the same id are both cancelled by one notifications/cancelled; a third call is untouched', async () => {
  const sleep = (id: string, ms: number): Promise<{ status: number; text: string }> => post(session, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'sleep', arguments: { ms } } });
  const first = sleep('dup', 15_000);
  const second = sleep('dup', 15_000);
  const other = sleep('other', 300);
  const deadline = Date.now() + 10_000;
  while (gateway.running.gateway.calls.size < 3) {
    if (Date.now() > deadline) throw new Error('the calls did not start');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const cancelled = await post(session, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'dup', reason: 'test' } });
  expect(cancelled.status).toBe(202);
  expect((await first).text).toBe('');
  expect((await second).text).toBe('');
  expect((await other).text).toContain('"id":"other"');
  // Nothing of the cancelled calls is left to cancel.
  const again = await post(session, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'dup', reason: 'test' } });
  expect(again.headers.get('x-request-id')).not.toMatch(FAST_ID);
});

test('with no token cache, the fast path checks the token itself, so a cancellation still finds its call', async () => {
  // A request whose token is not in the cache went to the general path, whose transport does not know
  // fast-path calls: under load (cache entries older than 5 s) a cancellation was lost.
  const uncached = await startTestGateway({ servers: { sink: { command: process.execPath, args: [KITCHEN_SINK] } }, tokenCacheTtlMs: 0 });
  try {
    await expectCancellable(uncached, await openSession(uncached));
  } finally {
    await uncached.close();
  }
}, 30_000);

test('a 2026-07-28 tools/call on the fast path carries resultType and the server identity', async () => {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  const answer = await post({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' }, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { message: 'modern' }, _meta: meta } });
  expect(answer.headers.get('x-request-id')).toMatch(FAST_ID);
  expect(answer.headers.get('content-type')).toBe('application/json');
  expect(JSON.parse(answer.text)).toMatchObject({
    jsonrpc: '2.0',
    id: 3,
    result: { content: [{ type: 'text', text: 'modern' }], resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'mcp-switchboard', version: expect.any(String) } } },
  });
});

test('a 2026-07-28 tools/call answers the same bytes on the fast path as on the general path', async () => {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  for (const [name, args] of [['echo', { message: 'modern' }], ['fail', {}]] as const) {
    const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name };
    const body = { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name, arguments: args, _meta: meta } };
    const fast = await post(headers, body);
    // A trace context sends the same request the general way.
    const general = await post({ ...headers, traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }, body);
    expect(fast.headers.get('x-request-id')).toMatch(FAST_ID);
    expect(general.headers.get('x-request-id')).not.toMatch(FAST_ID);
    expect(headerSet(fast.headers)).toEqual(headerSet(general.headers));
    expect(fast.text).toBe(general.text);
  }
});

test('a wrong token and a foreign Origin are still refused', async () => {
  const body = { jsonrpc: '2.0', id: 9, method: 'ping' };
  expect((await post({ ...session, authorization: 'Bearer wrong' }, body)).status).toBe(401);
  expect((await post({ ...session, origin: 'http://evil.example' }, body)).status).toBe(403);
});

test('a token revoked while its keep-alive connection stays open is refused on that connection at once', async () => {
  const { user, token } = await gateway.addUser('keeps-alive', { admin: true });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const opened = await rawPost(agent, token, {}, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'keep-alive', version: '1' } } });
    const own = { 'mcp-session-id': String(opened.headers['mcp-session-id']), 'mcp-protocol-version': '2025-06-18' };
    await rawPost(agent, token, own, { jsonrpc: '2.0', method: 'notifications/initialized' });
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const before = await rawPost(agent, token, own, ping);
    expect(before.status).toBe(200);
    expect(before.headers['x-request-id']).toMatch(FAST_ID);
    expect(before.reused).toBe(true);
    const [info] = await gateway.registry.tokens.list(user);
    await gateway.registry.tokens.revoke(user, info?.prefix ?? '');
    const after = await rawPost(agent, token, own, ping);
    expect(after.reused).toBe(true);
    expect(after.status).toBe(401);
  } finally {
    agent.destroy();
  }
});

/** A POST on `agent` (one keep-alive socket): its status, headers, and whether it went on a socket used before. */
function rawPost(agent: http.Agent, token: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; headers: http.IncomingHttpHeaders; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const request = http.request(gateway.mcpUrl, { method: 'POST', agent, headers: { ...ACCEPT, authorization: `Bearer ${token}`, ...headers }, timeout: 20_000 }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, reused: request.reusedSocket }));
    });
    request.on('timeout', () => request.destroy(new Error('no answer within 20 s')));
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

test('a body the fast path reads that is not JSON, or over the limit (declared or chunked), gets the general path\'s answer', async () => {
  const invalid = await fetch(gateway.mcpUrl, { method: 'POST', headers: { ...ACCEPT, ...session, authorization: `Bearer ${gateway.adminToken}` }, body: '{"jsonrpc":"2.0",', signal: AbortSignal.timeout(20_000) });
  expect(invalid.status).toBe(400);
  expect(await invalid.json()).toMatchObject({ error: { code: -32700 } });
  // Over the default limit (4 MiB).
  const padding = 'z'.repeat(4 * 1024 * 1024 + 1024);
  const declared = await post(session, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { message: padding } } });
  expect(declared.status).toBe(413);
  expect(JSON.parse(declared.text)).toMatchObject({ error: { data: { code: 'PAYLOAD_TOO_LARGE' } } });
  const chunked = await chunkedPost(session, [`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"message":"`, padding, '"}}}']);
  expect(chunked.status).toBe(413);
  // The session still serves on the fast path.
  const after = await post(session, { jsonrpc: '2.0', id: 5, method: 'ping' });
  expect(after.status).toBe(200);
  expect(after.headers.get('x-request-id')).toMatch(FAST_ID);
});

test('a client that goes away in the middle of its body leaves the session serving', async () => {
  // Half of a declared 500-byte body, then the socket is destroyed: nothing may answer it, and the gateway must not fail.
  await new Promise<void>((resolve, reject) => {
    const request = http.request(gateway.mcpUrl, { method: 'POST', headers: { ...ACCEPT, ...session, authorization: `Bearer ${gateway.adminToken}`, 'content-length': '500' } });
    request.on('error', () => {}); // the destroy below
    request.on('response', () => reject(new Error('a request without its whole body was answered')));
    request.on('close', () => resolve());
    request.write('{"jsonrpc":"2.0","id":6,"method":"tools/call"', () => setImmediate(() => request.destroy()));
  });
  const after = await post(session, { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'echo', arguments: { message: 'still here' } } });
  expect(after.status).toBe(200);
  expect(after.text).toContain('still here');
});

/** A POST whose body goes out in `parts` with chunked framing (no content-length): status and body. */
function chunkedPost(headers: Record<string, string>, parts: string[]): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(gateway.mcpUrl, { method: 'POST', headers: { ...ACCEPT, authorization: `Bearer ${gateway.adminToken}`, ...headers }, timeout: 20_000 }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    request.on('timeout', () => request.destroy(new Error('no answer within 20 s')));
    request.on('error', reject);
    for (const part of parts) request.write(part);
    request.end();
  });
}

/**
 * ServerConnection over HTTP against real servers on 127.0.0.1: server-everything in Streamable HTTP
 * and SSE modes, the kitchen-sink fixture over Streamable HTTP, and small real HTTP servers that
 * refuse, 401 or 404.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { ServerConnection } from '../../src/connection/server-connection.js';
import { ErrorCode, type SwitchboardError } from '../../src/errors.js';
import { KITCHEN_SINK, bin, freePort, specOf, startHttpFixture, type HttpFixture } from '../helpers/fixtures.js';

const open: ServerConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});
async function connect(name: string, entry: Record<string, unknown>): Promise<ServerConnection> {
  const connection = new ServerConnection(specOf(name, entry));
  open.push(connection);
  await connection.connect();
  return connection;
}
async function failure(name: string, entry: Record<string, unknown>): Promise<SwitchboardError> {
  const connection = new ServerConnection(specOf(name, entry));
  open.push(connection);
  return connection.connect().then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as SwitchboardError,
  );
}

/** A real HTTP server answering every request with `handler`. */
async function httpServer(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<{ url: string; server: Server; requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = [];
  const server = createServer((request, response) => {
    requests.push(request);
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/mcp`, server, requests };
}
const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('server-everything over HTTP', () => {
  let streamable: HttpFixture;
  let sse: HttpFixture;
  beforeAll(async () => {
    [streamable, sse] = await Promise.all([
      startHttpFixture(bin('mcp-server-everything'), ['streamableHttp']),
      startHttpFixture(bin('mcp-server-everything'), ['sse']),
    ]);
  });
  afterAll(async () => {
    await Promise.all([streamable?.close(), sse?.close()]);
  });

  test('Streamable HTTP, negotiated with protocol auto (falls back to 2025 initialize)', async () => {
    const connection = await connect('everything', { url: streamable.url('/mcp') });
    expect(connection.transportKind).toBe('http');
    expect(connection.protocolVersion).toBe('2025-11-25');
    expect((await connection.listTools()).map((tool) => tool.name)).toContain('echo');
    expect((await connection.callTool('echo', { message: 'over http' })).content).toEqual([{ type: 'text', text: 'Echo: over http' }]);
  });

  test('an SSE-only server: the Streamable HTTP attempt gets a 4xx and the client falls back to SSE', async () => {
    const connection = await connect('legacy', { url: sse.url('/sse') });
    expect(connection.transportKind).toBe('sse');
    expect((await connection.callTool('get-sum', { a: 2, b: 40 })).content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('42') });
  });

  test('transport: sse goes straight to SSE; transport: http does not fall back', async () => {
    expect((await connect('direct', { url: sse.url('/sse'), transport: 'sse' })).transportKind).toBe('sse');
    const error = await failure('strict', { url: sse.url('/sse'), transport: 'http' });
    expect(error.code).toBe(ErrorCode.ServerHttpError);
    expect(error.details.status).toBeGreaterThanOrEqual(400);
  });
});

test('the kitchen-sink fixture over Streamable HTTP keeps every content item', async () => {
  const port = await freePort();
  const fixture = await startHttpFixture(process.execPath, [KITCHEN_SINK, '--http', String(port)], { port });
  try {
    const connection = await connect('sink-http', { url: fixture.url('/mcp'), headers: { 'X-Test': 'yes' } });
    const mixed = await connection.callTool('mixed');
    expect(mixed.content.map((item) => item.type)).toEqual(['text', 'image', 'audio', 'resource', 'resource_link', 'text']);
    const updates: number[] = [];
    await connection.callTool('sleep', { ms: 100 }, { onProgress: (update) => updates.push(update.progress) });
    expect(updates).toEqual([1, 2]);
  } finally {
    await Promise.all(open.splice(0).map((connection) => connection.close()));
    await fixture.close();
  }
});

test('a URL where nothing listens: a clear error, fast', async () => {
  const port = await freePort();
  const error = await failure('nobody', { url: `http://127.0.0.1:${port}/mcp`, timeout: 5 });
  expect(error.code).toBe(ErrorCode.ServerStartFailed);
  expect(error.message).toContain('ECONNREFUSED');
  expect(error.hint).toContain('nothing is listening');
});

test('HTTP 401: SERVER_UNAUTHORIZED, no fallback to SSE, the API key is sent as a bearer token', async () => {
  const { url, server, requests } = await httpServer((_request, response) => {
    response.writeHead(401, { 'WWW-Authenticate': 'Bearer realm="test"' }).end();
  });
  servers.push(server);
  const error = await failure('locked', { url, apiKey: 'key-123' });
  expect(error.code).toBe(ErrorCode.ServerUnauthorized);
  expect(error.hint).toContain('apiKey');
  expect(requests.every((request) => request.method === 'POST')).toBe(true);
  expect(requests[0]?.headers.authorization).toBe('Bearer key-123');
});

test('HTTP 404 on both transports: SERVER_HTTP_ERROR with the SSE hint', async () => {
  const { url, server } = await httpServer((_request, response) => response.writeHead(404).end('not here'));
  servers.push(server);
  const error = await failure('missing', { url });
  expect(error.code).toBe(ErrorCode.ServerHttpError);
  expect(error.details.status).toBe(404);
});

describe('an HTTP server that forgets the session (404): one re-initialize, the request is sent again', () => {
  let fixture: HttpFixture;
  beforeAll(async () => {
    const port = await freePort();
    fixture = await startHttpFixture(process.execPath, [KITCHEN_SINK, '--http', String(port)], { port });
  });
  afterAll(async () => fixture?.close());
  const control = async (path: string): Promise<{ initializes: number; toolCalls: number }> => (await fetch(`http://127.0.0.1:${fixture.port}/control/${path}`, { method: 'POST' })).json() as Promise<{ initializes: number; toolCalls: number }>;

  // The recovery must not depend on the performance flag: both sessions share one request path.
  for (const leanRequests of [true, false]) {
    test(`callTool and request recover (leanRequests: ${leanRequests})`, async () => {
      const connection = new ServerConnection(specOf('forgetful', { url: fixture.url('/mcp') }), { leanRequests });
      open.push(connection);
      await connection.connect();
      const before = await control('stats');
      await control('forget-sessions');
      expect((await connection.callTool('echo', { message: 'after 404' })).content[0]).toEqual({ type: 'text', text: 'after 404' });
      const afterCall = await control('stats');
      expect(afterCall.initializes - before.initializes).toBe(1);
      await control('forget-sessions');
      expect(await connection.request('tools/call', { name: 'echo', arguments: { message: 'raw' } })).toMatchObject({ content: [{ type: 'text', text: 'raw' }] });
      expect((await control('stats')).initializes - afterCall.initializes).toBe(1);
      expect(connection.state).toBe('ready');
    });
  }
});

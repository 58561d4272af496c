/**
 * Issue 14, finding 5, over real sockets: one tenant cannot hold the gateway's memory and file
 * descriptors. 2025-era sessions, 2026-07-28 `subscriptions/listen` streams and `/api/events` streams
 * are capped per user and in total (429 with a message naming the limit, each refusal counted on
 * /metrics), idle sessions expire, and connections that never finish their request (slow-loris) are
 * closed within the headers deadline, with a cap on connections overall.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { SdkHttpError, type Client as V2Client } from '@modelcontextprotocol/client';
import { connectV2, startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { waitFor } from '../../helpers/processes.js';

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } });
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Opens a 2025-era session with a raw `initialize`; returns the answer and the session id. */
async function openSession(gateway: TestGateway, token: string): Promise<{ status: number; sessionId: string | null; body: unknown }> {
  const response = await gateway.api('/mcp', { token, method: 'POST', body: initialize, headers: mcpHeaders });
  const text = await response.text();
  const json = text.startsWith('{') ? JSON.parse(text) : JSON.parse(text.split('\n').find((line) => line.startsWith('data: '))?.slice(6) ?? 'null');
  return { status: response.status, sessionId: response.headers.get('mcp-session-id'), body: json };
}

function deleteSession(gateway: TestGateway, token: string, sessionId: string): Promise<Response> {
  return gateway.api('/mcp', { token, method: 'DELETE', headers: { 'mcp-session-id': sessionId } });
}

describe('caps on sessions and event streams', () => {
  let gateway: TestGateway;
  const streams: AbortController[] = [];
  beforeAll(async () => {
    gateway = await startTestGateway({ maxSessionsPerUser: 3, maxSessions: 5, maxEventStreamsPerUser: 2, maxEventStreams: 3 });
  });
  afterEach(() => {
    for (const stream of streams.splice(0)) stream.abort();
  });
  afterAll(async () => {
    await gateway?.close();
  });

  /** Opens `/api/events` and leaves it open; returns its status (and the JSON body when refused). */
  async function openEvents(token: string): Promise<{ status: number; body?: unknown }> {
    const controller = new AbortController();
    const response = await fetch(`${gateway.url}/api/events`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
    if (response.status !== 200) return { status: response.status, body: await response.json() };
    streams.push(controller);
    return { status: 200 };
  }

  test('sessions past the per-user cap get 429 saying which limit and what to do; another user is still served', async () => {
    const alice = await gateway.addUser('alice');
    const bob = await gateway.addUser('bob');
    const opened = [];
    for (let index = 0; index < 3; index++) opened.push(await openSession(gateway, alice.token));
    expect(opened.map((session) => session.status)).toEqual([200, 200, 200]);
    const refused = await openSession(gateway, alice.token);
    expect(refused.status).toBe(429);
    expect(refused.sessionId).toBeNull();
    expect(refused.body).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringContaining('3 open sessions, the most allowed per user (maxSessionsPerUser)'), data: { code: 'LIMIT_EXCEEDED', hint: expect.stringContaining('DELETE') } },
    });
    expect((await openSession(gateway, bob.token)).status).toBe(200);
    // Ending a session frees its place.
    expect((await deleteSession(gateway, alice.token, opened[0]?.sessionId ?? '')).status).toBe(200);
    const again = await openSession(gateway, alice.token);
    expect(again.status).toBe(200);
    // 3 of alice's and 1 of bob's are open: one more fills the gateway (5), the next is refused for anyone.
    expect((await openSession(gateway, bob.token)).status).toBe(200);
    const carol = await gateway.addUser('carol');
    const full = await openSession(gateway, carol.token);
    expect(full.status).toBe(429);
    expect(full.body).toMatchObject({ error: { message: expect.stringContaining('5 open sessions, its limit (maxSessions)') } });
    expect(gateway.running.gateway.mcp.sessionCount).toBe(5);
    for (const session of [...opened.slice(1), again]) await deleteSession(gateway, alice.token, session.sessionId ?? '');
    expect((await openSession(gateway, carol.token)).status).toBe(200);
  });

  test('a request without a valid token is answered 401 and its connection closed, its body never awaited', async () => {
    const url = new URL(gateway.url);
    const socket = connect(Number(url.port), url.hostname, () => {
      // Headers complete, a body announced and never sent: the 401 must not wait for it (or for requestTimeoutMs).
      socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{');
    });
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const started = Date.now();
    await new Promise<void>((done, fail) => {
      socket.once('close', () => done());
      socket.once('error', fail);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect(answer.toLowerCase()).toContain('connection: close');
    // The defaults here are 10 s (headers) and 60 s (request): this close is the refusal's.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('event streams past the per-user cap get 429; the global cap holds too; a closed stream frees its place', async () => {
    const dave = await gateway.addUser('dave');
    const erin = await gateway.addUser('erin');
    expect((await openEvents(dave.token)).status).toBe(200);
    expect((await openEvents(dave.token)).status).toBe(200);
    const refused = await openEvents(dave.token);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: {
        code: 'LIMIT_EXCEEDED',
        message: 'user "dave" has 2 open event streams, the most allowed per user (maxEventStreamsPerUser)',
        hint: expect.stringContaining('close a dashboard tab'),
      },
    });
    expect((await openEvents(erin.token)).status).toBe(200);
    const full = await openEvents(erin.token);
    expect(full.status).toBe(429);
    expect(full.body).toMatchObject({ error: { message: 'the gateway has 3 open event streams, its limit (maxEventStreams)' } });
    streams.shift()?.abort();
    await waitFor(async () => (await openEvents(erin.token)).status === 200, 5_000, 'a freed event stream place');
  });
});

/** The value of one sample of the admin's /metrics scrape (undefined when absent). */
async function metric(gateway: TestGateway, sample: string): Promise<number | undefined> {
  const text = await (await gateway.api('/metrics')).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${sample} `));
  return line === undefined ? undefined : Number(line.slice(sample.length + 1));
}

describe('caps on 2026-07-28 subscriptions/listen streams (and the 2025 GET stream)', () => {
  let gateway: TestGateway;
  const clients: V2Client[] = [];
  const tools = { toolsListChanged: true };
  beforeAll(async () => {
    gateway = await startTestGateway({ maxListenStreamsPerUser: 2, maxListenStreams: 3, maxSessionsPerUser: 1 });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await gateway?.close();
  });

  /** A real SDK v2 client of `token`, negotiated to 2026-07-28 (it opens no listen stream by itself). */
  async function modernClient(token: string): Promise<V2Client> {
    const client = await connectV2(gateway.mcpUrl, token, 'auto');
    clients.push(client);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    return client;
  }

  /** The gateway's JSON-RPC refusal of a listen, from the SDK client's error (it carries the answer's body). */
  async function refusalOf(client: V2Client): Promise<{ status: number | undefined; body: unknown }> {
    const error: unknown = await client.listen(tools).then(
      (subscription) => {
        void subscription.close();
        return new Error('the listen stream was opened');
      },
      (failure: unknown) => failure,
    );
    const text = error instanceof Error ? error.message : String(error);
    const body = text.slice(text.indexOf('{'));
    return { status: SdkHttpError.isInstance(error) ? error.status : undefined, body: body.startsWith('{') ? JSON.parse(body) : text };
  }

  test('listen streams past the per-user cap get 429 naming the limit; the global cap holds; a closed stream frees its place; refusals are counted', async () => {
    const frank = await gateway.addUser('frank');
    const grace = await gateway.addUser('grace');
    const heidi = await gateway.addUser('heidi');
    const frankClient = await modernClient(frank.token);
    const first = await frankClient.listen(tools);
    await frankClient.listen(tools);
    const refused = await refusalOf(frankClient);
    expect(refused).toEqual({
      status: 429,
      body: {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32000,
          message: 'user "frank" has 2 open subscriptions/listen streams, the most allowed per user (maxListenStreamsPerUser)',
          data: { code: 'LIMIT_EXCEEDED', hint: expect.stringContaining('the administrator can raise maxListenStreamsPerUser') },
        },
      },
    });
    // Another user is served; with frank's 2 and grace's 1 the gateway is full (3), for anyone.
    const graceClient = await modernClient(grace.token);
    await graceClient.listen(tools);
    const heidiClient = await modernClient(heidi.token);
    const full = await refusalOf(heidiClient);
    expect(full).toMatchObject({ status: 429, body: { error: { message: 'the gateway has 3 open subscriptions/listen streams, its limit (maxListenStreams)', data: { code: 'LIMIT_EXCEEDED' } } } });
    // Calls other than listen are not held to these caps.
    expect((await heidiClient.listTools()).tools).toEqual([]);
    await first.close();
    await waitFor(async () => {
      const attempt = await heidiClient.listen(tools).catch(() => undefined);
      await attempt?.close();
      return attempt !== undefined;
    }, 10_000, 'a freed listen stream place');
    expect(await metric(gateway, 'switchboard_limit_refusals_total{limit="maxListenStreamsPerUser"}')).toBe(1);
    expect(await metric(gateway, 'switchboard_limit_refusals_total{limit="maxListenStreams"}')).toBeGreaterThanOrEqual(1);
  }, 30_000);

  test('the 2025 standalone GET stream is one per session, so the session cap bounds it; the refused session is counted', async () => {
    const ivan = await gateway.addUser('ivan');
    const session = await openSession(gateway, ivan.token);
    expect(session.status).toBe(200);
    const headers = { accept: 'text/event-stream', 'mcp-session-id': session.sessionId ?? '', 'mcp-protocol-version': '2025-11-25' };
    const controller = new AbortController();
    try {
      const stream = await fetch(`${gateway.url}/mcp`, { headers: { ...headers, authorization: `Bearer ${ivan.token}` }, signal: controller.signal });
      expect(stream.status).toBe(200);
      const second = await gateway.api('/mcp', { token: ivan.token, headers });
      expect(second.status).toBe(409);
      expect((await openSession(gateway, ivan.token)).status).toBe(429);
      expect(await metric(gateway, 'switchboard_limit_refusals_total{limit="maxSessionsPerUser"}')).toBe(1);
      // Caps nobody reached are shown at 0, so a dashboard can graph them before the first refusal.
      expect(await metric(gateway, 'switchboard_limit_refusals_total{limit="maxEventStreams"}')).toBe(0);
    } finally {
      controller.abort();
      await deleteSession(gateway, ivan.token, session.sessionId ?? '');
    }
  });
});

describe('idle sessions and unfinished requests', () => {
  let gateway: TestGateway;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    gateway = await startTestGateway({ sessionIdleTtlMs: 1_000, headersTimeoutMs: 1_000, requestTimeoutMs: 2_000, maxConnections: 40 });
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.destroy();
  });
  afterAll(async () => {
    await gateway?.close();
  });

  /** A raw TCP connection to the gateway that writes `partial` and never finishes its request. */
  function slowLoris(partial: string): Promise<Socket> {
    const url = new URL(gateway.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(partial);
        resolve(socket);
      });
      socket.on('error', reject);
      socket.resume(); // reads the gateway's 408, so the socket sees the end and closes
      sockets.push(socket);
    });
  }

  function closed(socket: Socket): Promise<void> {
    return socket.closed ? Promise.resolve() : new Promise((resolve) => socket.once('close', () => resolve()));
  }

  test('an idle session is closed after sessionIdleTtlMs (its memory and place freed); its id resumes it, an ended one is 404', async () => {
    const session = await openSession(gateway, gateway.adminToken);
    expect(session.status).toBe(200);
    await waitFor(() => gateway.running.gateway.mcp.sessionCount === 0, 10_000, 'the idle session to close');
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const headers = { ...mcpHeaders, 'mcp-session-id': session.sessionId ?? '', 'mcp-protocol-version': '2025-11-25' };
    // The id carries the session (issue 20): the client comes back without a new initialize.
    const resumed = await gateway.api('/mcp', { method: 'POST', body: list, headers });
    expect(resumed.status).toBe(200);
    await resumed.text();
    expect(gateway.running.gateway.mcp.sessionCount).toBe(1);
    expect((await gateway.api('/mcp', { method: 'DELETE', headers })).status).toBe(200);
    expect((await gateway.api('/mcp', { method: 'POST', body: list, headers })).status).toBe(404);
  });

  test('30 slow-loris connections (partial headers, or nothing) are closed within the headers deadline; a normal request is served meanwhile', async () => {
    const started = Date.now();
    const attackers = await Promise.all(
      Array.from({ length: 30 }, (_, index) => slowLoris(index % 2 === 0 ? `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ` : '')),
    );
    const health = await gateway.api('/healthz', { token: null });
    expect(health.status).toBe(200);
    await Promise.all(attackers.map(closed));
    // The deadline is 1 s, checked every second: all are gone well before Node's default 60 s.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await gateway.api('/api/me')).status).toBe(200);
  });

  test('connections past maxConnections are dropped at once; the gateway serves again once they are gone', async () => {
    const started = Date.now();
    const attackers = await Promise.all(Array.from({ length: 50 }, () => slowLoris('GET /api/me HTTP/1.1\r\n')));
    const lifetimes = await Promise.all(attackers.map(async (socket) => (await closed(socket), Date.now() - started)));
    // Dropped on arrival (well before the 1 s headers deadline) vs held until the deadline.
    const dropped = lifetimes.filter((ms) => ms < 500).length;
    expect(dropped).toBeGreaterThanOrEqual(10);
    expect(lifetimes.length - dropped).toBeLessThanOrEqual(40);
    expect((await gateway.api('/api/me')).status).toBe(200);
    // Each drop is counted (a connection closed on arrival never reaches the request log).
    expect(await metric(gateway, 'switchboard_limit_refusals_total{limit="maxConnections"}')).toBeGreaterThanOrEqual(10);
  });
});

test('a bad limit fails the start with a message naming the option', async () => {
  await expect(startTestGateway({ headersTimeoutMs: 5_000, requestTimeoutMs: 1_000 })).rejects.toThrow('headersTimeoutMs (5000) must not be longer than requestTimeoutMs (1000)');
  await expect(startTestGateway({ maxSessionsPerUser: 0 })).rejects.toThrow('maxSessionsPerUser must be a whole number of at least 1, got 0');
  await expect(startTestGateway({ maxListenStreams: 1.5 })).rejects.toThrow('maxListenStreams must be a whole number of at least 1, got 1.5');
  await expect(startTestGateway({ maxConnections: -1 })).rejects.toThrow('maxConnections must be a whole number of at least 1, got -1');
});

/**
 * The gateway when upstreams misbehave or ask questions, over real sockets with real servers:
 * - an upstream that never answers `initialize` does not break `tools/list` (the others are listed;
 *   its state and error are in /api/servers), and a call that hangs on one server does not stop
 *   calls to others;
 * - an upstream's elicitation and sampling requests reach the client whose call it is, when that
 *   client declared the capability, and are declined with a reason otherwise;
 * - a graceful shutdown lets a running call finish, and cancels one that outlives the deadline.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createGatewayApp } from '../../../src/gateway/app.js';
import { FAULT_SERVER, FIXTURES, KITCHEN_SINK } from '../../helpers/fixtures.js';
import { connectV1, connectV2, startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { descendantsOf, isAlive, waitFor } from '../../helpers/processes.js';

const ASKING_SERVER = `${FIXTURES}/asking-server.mjs`;
const WAIT_MS = 10_000;

function serversGone(): boolean {
  return descendantsOf(process.pid).every((child) => ![KITCHEN_SINK, FAULT_SERVER, ASKING_SERVER].some((script) => child.cmdline.includes(script)));
}

describe('one bad upstream among good ones', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({
      servers: {
        sink: { command: process.execPath, args: [KITCHEN_SINK] },
        stuck: { command: process.execPath, args: [FAULT_SERVER, '--mode', 'never-initialize'], timeout: '1s' },
        hanging: { command: process.execPath, args: [FAULT_SERVER, '--mode', 'ok'], include: ['hang'], callTimeout: '30s' },
      },
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await waitFor(serversGone, 5_000, 'the servers to exit');
  });

  test('tools/list answers with the healthy servers\' tools; the stuck one is reported, not fatal', async () => {
    const client = await connectV2(gateway.mcpUrl, gateway.adminToken, 'legacy');
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      // stuck's tools were never known: names stay prefixed, so none can later become stuck's.
      expect(names).toEqual(expect.arrayContaining(['sink__echo', 'sink__sleep', 'hanging__hang']));
      const { servers } = (await (await gateway.api('/api/servers')).json()) as { servers: Array<{ name: string; state: string; error?: { code: string; message: string } }> };
      expect(servers.find((server) => server.name === 'stuck')).toMatchObject({ state: 'failed', error: { code: 'SERVER_START_FAILED', message: expect.stringMatching(/did not finish starting within 1000 ms|timed out|within/) } });
      expect(servers.find((server) => server.name === 'sink')?.state).toBe('ready');
    } finally {
      await client.close();
    }
  });

  test('a call hanging on one server does not hold up calls to another; cancelling it frees it', async () => {
    const client = await connectV2(gateway.mcpUrl, gateway.adminToken, 'legacy');
    try {
      const controller = new AbortController();
      const hung = client.callTool({ name: 'hanging__hang', arguments: {} }, { signal: controller.signal });
      await waitFor(() => gateway.running.gateway.calls.size === 1, WAIT_MS, 'the hanging call to start');
      const answers = await Promise.all(Array.from({ length: 5 }, (_, index) => client.callTool({ name: 'sink__echo', arguments: { message: `still here ${index}` } })));
      expect(answers.map((answer) => (answer.content as Array<{ text: string }>)[0]?.text)).toEqual([0, 1, 2, 3, 4].map((index) => `still here ${index}`));
      controller.abort(new Error('giving up'));
      await expect(hung).rejects.toThrow();
      await waitFor(() => gateway.running.gateway.calls.size === 0, WAIT_MS, 'the hanging call to be released');
    } finally {
      await client.close();
    }
  });
});

describe('upstream questions (elicitation, sampling)', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ servers: { asking: { command: process.execPath, args: [ASKING_SERVER] } } });
  });
  afterAll(async () => {
    await gateway?.close();
    await waitFor(serversGone, 5_000, 'the servers to exit');
  });

  test('reach the 2025 client that made the call, when it declared the capability', async () => {
    const client = await connectV1(gateway.mcpUrl, gateway.adminToken, { elicitation: {}, sampling: {} });
    try {
      const asked: string[] = [];
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        asked.push(request.params.message);
        return { action: 'accept', content: { name: 'Ada' } };
      });
      client.setRequestHandler(CreateMessageRequestSchema, (request) => {
        const first = request.params.messages[0]?.content;
        asked.push(first !== undefined && 'text' in first ? String(first.text) : '?');
        return { role: 'assistant', content: { type: 'text', text: 'short' }, model: 'scripted', stopReason: 'endTurn' };
      });
      expect(await client.callTool({ name: 'ask_name', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'hello Ada' }] });
      expect(await client.callTool({ name: 'summarize', arguments: { text: 'a long story' } })).toMatchObject({ content: [{ type: 'text', text: 'summary: short' }] });
      expect(asked).toEqual(['What is your name?', 'Summarize: a long story']);
    } finally {
      await client.close();
    }
  });

  test('reach a 2026-07-28 client as input_required rounds; its answers resume the upstream call', async () => {
    const modern = await connectV2(gateway.mcpUrl, gateway.adminToken, 'auto', { capabilities: { elicitation: {}, sampling: {} } });
    try {
      const asked: string[] = [];
      modern.setRequestHandler('elicitation/create', async (request) => {
        asked.push(String(request.params.message));
        return { action: 'accept', content: { name: 'Grace' } };
      });
      modern.setRequestHandler('sampling/createMessage', async (request) => {
        const first = request.params.messages[0]?.content;
        asked.push(first !== undefined && !Array.isArray(first) && first.type === 'text' ? first.text : '?');
        return { role: 'assistant', content: { type: 'text', text: 'brief' }, model: 'scripted', stopReason: 'endTurn' };
      });
      expect(modern.getProtocolEra()).toBe('modern');
      expect(await modern.callTool({ name: 'ask_name', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'hello Grace' }] });
      expect(await modern.callTool({ name: 'summarize', arguments: { text: 'a long story' } })).toMatchObject({ content: [{ type: 'text', text: 'summary: brief' }] });
      expect(asked).toEqual(['What is your name?', 'Summarize: a long story']);
      // Nothing is left waiting for a client.
      expect(gateway.running.gateway.calls.size).toBe(0);
    } finally {
      await modern.close();
    }
  });

  test('are declined with the reason when the client cannot answer', async () => {
    const plain = await connectV2(gateway.mcpUrl, gateway.adminToken, 'legacy');
    const modern = await connectV2(gateway.mcpUrl, gateway.adminToken, 'auto');
    try {
      const noCapability = await plain.callTool({ name: 'ask_name', arguments: {} });
      expect(noCapability.isError).toBe(true);
      expect(JSON.stringify(noCapability.content)).toMatch(/elicitation declined: the MCP client connected to the gateway did not declare the elicitation capability/);
      const modernCall = await modern.callTool({ name: 'summarize', arguments: { text: 'x' } });
      expect(JSON.stringify(modernCall.content)).toMatch(/sampling declined: the client \(protocol 2026-07-28\) did not declare the sampling capability/);
      const api = (await (await gateway.api('/api/tools/ask_name/call', { body: {} })).json()) as { result: { isError: boolean; content: Array<{ text: string }> } };
      expect(api.result.isError).toBe(true);
      expect(api.result.content[0]?.text).toMatch(/the call came through the REST API/);
    } finally {
      await plain.close();
      await modern.close();
    }
  });
});

describe('graceful shutdown', () => {
  test('a running call finishes before the gateway stops; then every server process is gone', async () => {
    const gateway = await startTestGateway({ servers: { sink: { command: process.execPath, args: [KITCHEN_SINK] } } });
    const client = await connectV2(gateway.mcpUrl, gateway.adminToken, 'legacy');
    const lease = await gateway.running.gateway.pool.acquire(gateway.admin);
    const pid = lease.client.status()[0]?.pid;
    lease.release();
    try {
      const call = client.callTool({ name: 'sleep', arguments: { ms: 800 } });
      await waitFor(() => gateway.running.gateway.calls.size === 1, WAIT_MS, 'the call to start');
      const closing = gateway.running.close({ deadlineMs: 5_000 });
      // New connections are no longer accepted; requests on open ones are refused while the call finishes.
      const app = createGatewayApp(gateway.running.gateway);
      const headers = { host: '127.0.0.1', authorization: `Bearer ${gateway.adminToken}` };
      expect((await app.request('/api/tools', { headers })).status).toBe(503);
      expect((await app.request('/readyz', { headers })).status).toBe(503);
      expect((await app.request('/mcp', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' })).status).toBe(503);
      expect(await call).toMatchObject({ content: [{ type: 'text', text: 'slept 800 ms' }] });
      await closing;
      expect(pid !== undefined && isAlive(pid)).toBe(false);
    } finally {
      await client.close().catch(() => {});
      await gateway.close();
    }
  });

  test.each([
    ['SDK v1 (2025 session)', 'v1'],
    ['SDK v2 auto (2026-07-28)', 'auto'],
  ] as const)('%s: a call still running at the deadline is cancelled, and its client gets an answer saying so', async (_label, kind) => {
    const gateway = await startTestGateway({ servers: { sink: { command: process.execPath, args: [KITCHEN_SINK] } } });
    const client = kind === 'v1' ? await connectV1(gateway.mcpUrl, gateway.adminToken) : await connectV2(gateway.mcpUrl, gateway.adminToken, 'auto');
    try {
      const call = client.callTool({ name: 'sleep', arguments: { ms: 30_000 } });
      await waitFor(() => gateway.running.gateway.calls.size === 1, WAIT_MS, 'the call to start');
      const started = Date.now();
      await gateway.running.close({ deadlineMs: 300 });
      // The client gets an answer, not a dropped connection: the call was cancelled because of the shutdown.
      expect(await call).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('the gateway is shutting down') }] });
      expect(Date.now() - started).toBeLessThan(8_000);
      await waitFor(serversGone, 5_000, 'the servers to exit');
    } finally {
      await client.close().catch(() => {});
      await gateway.close();
    }
  });
});

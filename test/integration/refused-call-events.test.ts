/**
 * Calls refused before anything is sent (invalid arguments, an unknown tool, a server that is not up)
 * are visible as finished calls (issue 15, defect 6): the library emits `tool-call-refused` with the
 * error code (and no `tool-call-start`/`tool-call-end`, whose payloads stay as they were), the
 * gateway's `/api/events` streams it, and the audit log of the real SQLite registry has a row with the
 * code, under the server and tool where they are known. Real server-everything; the gated kitchen
 * sink for a server held down.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MultiServerClientEvents } from '../../src/client/multi-server-client.js';
import { connectForEachTest } from '../helpers/connect-for-each-test.js';
import { TEST_CLIENT_OPTIONS, gatedSink, waitForEvent, type GatedSink } from '../helpers/agents.js';
import { openEventStream } from '../helpers/event-stream.js';
import { bin } from '../helpers/fixtures.js';
import { connectV2, startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { waitFor } from '../helpers/processes.js';

const connect = connectForEachTest();

type Seen = Array<{ event: string; payload: unknown }>;

/** Every call event of `client`, in order. */
function recordCallEvents(client: { on<K extends keyof MultiServerClientEvents>(event: K, listener: (payload: MultiServerClientEvents[K]) => void): unknown }): Seen {
  const seen: Seen = [];
  client.on('tool-call-start', (payload) => seen.push({ event: 'tool-call-start', payload }));
  client.on('tool-call-end', (payload) => seen.push({ event: 'tool-call-end', payload }));
  client.on('tool-call-refused', (payload) => seen.push({ event: 'tool-call-refused', payload }));
  return seen;
}

describe('library', () => {
  test('a refused call emits tool-call-refused with its code; sent calls keep their start and end', async () => {
    const client = await connect({ mcpServers: { everything: { command: bin('mcp-server-everything') } } });
    const seen = recordCallEvents(client);
    await client.callTool('get-sum', { a: 1, b: 2 });
    await expect(client.callTool('get-sum', { a: 1 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(client.callTool('no-such-tool', {})).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND' });
    expect(seen.map((item) => item.event)).toEqual(['tool-call-start', 'tool-call-end', 'tool-call-refused', 'tool-call-refused']);
    // The sent call's end is as before: no new fields.
    expect(Object.keys(seen[1]?.payload ?? {}).sort()).toEqual(['callId', 'durationMs', 'isError', 'name', 'ok', 'originalName', 'server']);
    expect(seen[2]?.payload).toEqual({ callId: expect.any(Number), name: 'get-sum', server: 'everything', originalName: 'get-sum', errorCode: 'INVALID_ARGUMENT' });
    expect(seen[3]?.payload).toEqual({ callId: expect.any(Number), name: 'no-such-tool', errorCode: 'TOOL_NOT_FOUND' });
    const ids = seen.map((item) => (item.payload as { callId: number }).callId);
    expect(new Set(ids).size).toBe(3);
  });

  test('a call to a tool whose server is down: the event names the server and the tool', async () => {
    const gate = gatedSink();
    try {
      const client = await connect({ mcpServers: { sink: gate.entry } }, TEST_CLIENT_OPTIONS);
      await gate.killAndHold(client, 'sink');
      const refused = waitForEvent(client, 'tool-call-refused');
      await expect(client.callTool('add', { a: 1, b: 2 })).rejects.toMatchObject({ code: 'SERVER_DISCONNECTED' });
      expect(await refused).toEqual({ callId: expect.any(Number), name: 'add', server: 'sink', originalName: 'add', errorCode: 'SERVER_DISCONNECTED' });
    } finally {
      gate.open();
      gate.cleanup();
    }
  });
});

describe('gateway', () => {
  let gateway: TestGateway;
  let gate: GatedSink;
  beforeAll(async () => {
    gate = gatedSink();
    gateway = await startTestGateway({ servers: { everything: { command: bin('mcp-server-everything') }, sink: gate.entry } });
  });
  afterAll(async () => {
    gate?.open();
    await gateway?.close();
    gate?.cleanup();
  });

  test('/api/events shows refused calls, and the audit log has a row for each, with its code', async () => {
    const events = await openEventStream(gateway.url, gateway.adminToken);
    const client = await connectV2(gateway.mcpUrl, gateway.adminToken, 'legacy');
    try {
      expect((await client.callTool({ name: 'get-sum', arguments: { a: 1 } })).isError).toBe(true);
      await expect(client.callTool({ name: 'no-such-tool', arguments: {} })).rejects.toThrow('There is no tool named "no-such-tool"');
      await waitFor(() => events.seen.filter((item) => item.event === 'tool-call-refused').length === 2, 10_000, 'two tool-call-refused events');
    } finally {
      await client.close();
      await events.close();
    }
    const refused = events.seen.filter((item) => item.event === 'tool-call-refused').map((item) => item.data);
    expect(refused).toEqual([
      { callId: expect.any(Number), name: 'get-sum', server: 'everything', originalName: 'get-sum', errorCode: 'INVALID_ARGUMENT', userId: gateway.admin.id, time: expect.any(Number) },
      { callId: expect.any(Number), name: 'no-such-tool', errorCode: 'TOOL_NOT_FOUND', userId: gateway.admin.id, time: expect.any(Number) },
    ]);
    // Neither was sent: no start or end of a call.
    expect(events.seen.filter((item) => item.event === 'tool-call-start' || item.event === 'tool-call-end')).toEqual([]);
    const rows = async (): Promise<unknown[]> => (await gateway.registry.audit.list({ user: 'admin' })).map((entry) => [entry.server, entry.tool, entry.ok, entry.errorCode]);
    await waitFor(async () => (await rows()).length >= 2, 10_000, 'two audit rows');
    expect(await rows()).toEqual([
      [undefined, 'no-such-tool', false, 'TOOL_NOT_FOUND'],
      ['everything', 'get-sum', false, 'INVALID_ARGUMENT'],
    ]);
  });

  test('a call to a tool whose server is down: the event and the audit row name the server and the tool', async () => {
    const lease = await gateway.running.gateway.lease(gateway.admin);
    try {
      const pid = lease.client.status().find((status) => status.name === 'sink')?.pid;
      expect(pid).toBeTypeOf('number');
      gate.hold();
      const down = waitForEvent(lease.client, 'server-state-change', (change) => change.server === 'sink' && change.to === 'failed');
      process.kill(pid ?? 0, 'SIGKILL');
      await down;
      const events = await openEventStream(gateway.url, gateway.adminToken);
      const client = await connectV2(gateway.mcpUrl, gateway.adminToken, 'legacy');
      try {
        const result = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }).catch((error: unknown) => error);
        expect(JSON.stringify(result)).toContain('which is failed');
        await waitFor(() => events.seen.some((item) => item.event === 'tool-call-refused'), 10_000, 'a tool-call-refused event');
      } finally {
        await client.close();
        await events.close();
      }
      expect(events.seen.find((item) => item.event === 'tool-call-refused')?.data).toMatchObject({ name: 'add', server: 'sink', originalName: 'add', errorCode: 'SERVER_DISCONNECTED' });
      await waitFor(async () => (await gateway.registry.audit.list({ user: 'admin' })).some((entry) => entry.errorCode === 'SERVER_DISCONNECTED'), 10_000, 'the audit row');
      const row = (await gateway.registry.audit.list({ user: 'admin' })).find((entry) => entry.errorCode === 'SERVER_DISCONNECTED');
      expect(row).toMatchObject({ server: 'sink', tool: 'add', ok: false });
    } finally {
      lease.release();
    }
  });
});

/**
 * 2025-era sessions across replicas: two gateways on one PostgreSQL registry with one secret key. A
 * real SDK v1 client whose requests alternate between them keeps one session (no second
 * `initialize`), its GET stream on one replica hears `list_changed` after an edit made through the
 * other, another user's token cannot use the id (403), an altered id is unknown (404), and a
 * `DELETE` through one replica ends the session on both, also for a replica that never held it; each
 * replica's heartbeat row puts it in the cluster (`/readyz`, `/api/cluster`).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { normalizeConfig } from '../../../src/config/normalize-config.js';
import { startGateway, type RunningGateway } from '../../../src/gateway/serve.js';
import type { RegistryUser } from '../../../src/registry/registry-types.js';
import { ServerRegistry } from '../../../src/registry/server-registry.js';
import { KITCHEN_SINK, ROOT } from '../../helpers/fixtures.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { waitFor } from '../../helpers/processes.js';
import { createTestDatabase, postgresUnavailableReason, type TestDatabase } from '../../helpers/registry-backends.js';

const reason = process.env.CI === 'true' ? undefined : await postgresUnavailableReason();
const servers = { sink: { command: process.execPath, args: [KITCHEN_SINK] } };
const WAIT_MS = 10_000;

describe.skipIf(reason !== undefined)(`sessions across two replicas on PostgreSQL${reason === undefined ? '' : ` (skipped: ${reason})`}`, () => {
  let database: TestDatabase;
  let first: TestGateway;
  let secondRegistry: ServerRegistry;
  let second: RunningGateway;
  let sam: { user: RegistryUser; token: string };
  let eve: { user: RegistryUser; token: string };
  const clients: V1Client[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    first = await startTestGateway({ db: database.db, servers });
    secondRegistry = await ServerRegistry.open({ db: database.db, keyFile: join(first.dir, 'secret.key') });
    const shared = normalizeConfig({ mcpServers: servers }, { baseDir: ROOT }).config;
    second = await startGateway({ registry: secondRegistry, port: 0, sharedConfig: { servers: shared.servers, naming: shared.naming }, pool: { clientOptions: { retryFailedServers: false, listChangedDebounceMs: 0 } } });
    sam = await first.addUser('sam', { admin: true });
    eve = await first.addUser('eve');
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    await second?.close({ deadlineMs: 1_000 });
    await secondRegistry?.close();
    await first?.close();
    await database?.drop();
  });

  /** A v1 client whose POSTs alternate between the replicas and whose GET stream goes to the second; counts what went where. */
  async function spreadClient(): Promise<{ client: V1Client; transport: V1HttpTransport; counts: { first: number; second: number; initialize: number } }> {
    const counts = { first: 0, second: 0, initialize: 0 };
    let turn = 0;
    const fetchSpread = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const url = new URL(input instanceof Request ? input.url : input);
      const method = init?.method ?? 'GET';
      if (typeof init?.body === 'string' && init.body.includes('"method":"initialize"')) counts.initialize++;
      const toSecond = method === 'GET' || (method === 'POST' && turn++ % 2 === 1);
      const base = new URL(toSecond ? second.url : first.url);
      url.host = base.host;
      if (toSecond) counts.second++;
      else counts.first++;
      return fetch(url, init);
    };
    const client = new V1Client({ name: 'spread', version: '1.0.0' }, { capabilities: {} });
    const transport = new V1HttpTransport(first.mcpUrl, { requestInit: { headers: { authorization: `Bearer ${sam.token}` } }, fetch: fetchSpread });
    await client.connect(transport);
    clients.push(client);
    return { client, transport, counts };
  }

  test('one session served by both replicas; list_changed on the GET stream after an edit through the other', async () => {
    const { client, transport, counts } = await spreadClient();
    for (let index = 0; index < 20; index++) {
      const result = (await client.callTool({ name: 'echo', arguments: { message: `call ${index}` } })) as { isError?: boolean; content: Array<{ text: string }> };
      expect(result.isError, result.content[0]?.text).not.toBe(true);
      expect(result.content[0]?.text).toContain(`call ${index}`);
    }
    expect(counts.initialize).toBe(1);
    expect(counts.first).toBeGreaterThanOrEqual(10);
    expect(counts.second).toBeGreaterThanOrEqual(10);
    expect(first.running.gateway.mcp.session(transport.sessionId ?? '')).toBeDefined();
    expect(second.gateway.mcp.session(transport.sessionId ?? '')).toBeDefined();

    // The GET stream is on the second replica; the edit is made through the first one's API.
    await waitFor(() => second.gateway.mcp.session(transport.sessionId ?? '')?.idleMs() === 0, WAIT_MS, 'the GET stream to open on the second replica');
    const changed = new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no tools/list_changed within 10 s')), WAIT_MS);
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        clearTimeout(timer);
        resolve(performance.now());
      });
    });
    const edited = performance.now();
    const added = await first.api('/api/servers', { token: sam.token, body: { name: 'sink2', entry: { command: process.execPath, args: [KITCHEN_SINK] } } });
    expect(added.status, await added.clone().text()).toBe(201);
    const heard = await changed;
    expect(heard - edited).toBeLessThan(WAIT_MS);
  }, 60_000);

  test('another user cannot use the id (403); an altered id is unknown (404)', async () => {
    const { transport } = await spreadClient();
    const id = transport.sessionId ?? '';
    const ask = (url: string, token: string, sessionId: string): Promise<Response> =>
      fetch(`${url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
    const fresh = await startGateway({ registry: secondRegistry, port: 0 });
    try {
      // A replica that never saw the session: the foreign user is refused, the owner is served.
      expect((await ask(fresh.url, eve.token, id)).status).toBe(403);
      // One character of the sealed part changed (in the middle: the last one may carry only padding bits).
      const at = Math.floor(id.length / 2);
      const altered = id.slice(0, at) + (id[at] === 'A' ? 'B' : 'A') + id.slice(at + 1);
      expect((await ask(fresh.url, sam.token, altered)).status).toBe(404);
      expect((await ask(fresh.url, sam.token, id)).status).toBe(200);
    } finally {
      await fresh.close({ deadlineMs: 0 });
    }
  }, 60_000);

  test('replicas on one database form the cluster: /readyz lists them; one that stops leaves it', async () => {
    const readyz = async (url: string): Promise<{ replica: string; inCluster: boolean; replicas: Array<{ id: string; url?: string }> }> => {
      expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ ready: true });
      const answer = await fetch(`${url}/api/cluster`, { headers: { authorization: `Bearer ${sam.token}` } });
      expect(answer.status).toBe(200);
      expect((await fetch(`${url}/api/cluster`, { headers: { authorization: `Bearer ${eve.token}` } })).status).toBe(403);
      return (await answer.json()) as never;
    };
    const third = await startGateway({ registry: secondRegistry, port: 0 });
    const seen = await readyz(first.url);
    expect(seen).toMatchObject({ inCluster: true, replica: first.running.gateway.replica.id });
    const ids = [first.running.gateway.replica.id, second.gateway.replica.id, third.gateway.replica.id];
    expect(seen.replicas.map((replica) => replica.id)).toEqual(expect.arrayContaining(ids));
    expect(seen.replicas.find((replica) => replica.id === third.gateway.replica.id)?.url).toBe(third.url);
    await third.close({ deadlineMs: 0 });
    // A replica on another machine says where the others reach it (the hop); a bad address is refused at start.
    const advertised = await startGateway({ registry: secondRegistry, port: 0, replicaUrl: 'http://10.0.0.5:7410/ignored-path' });
    try {
      expect((await readyz(first.url)).replicas.find((replica) => replica.id === advertised.gateway.replica.id)?.url).toBe('http://10.0.0.5:7410');
    } finally {
      await advertised.close({ deadlineMs: 0 });
    }
    await expect(startGateway({ registry: secondRegistry, port: 0, replicaUrl: 'ftp://user:pw@10.0.0.5' })).rejects.toThrow(/the replica URL must be an http:\/\/ or https:\/\/ address without credentials/);
    const after = await readyz(second.url);
    expect(after.replicas.map((replica) => replica.id)).not.toContain(third.gateway.replica.id);
    expect(after.replicas.map((replica) => replica.id)).toEqual(expect.arrayContaining(ids.slice(0, 2)));
  }, 60_000);

  test('DELETE through one replica ends the session on every replica', async () => {
    const { client, transport } = await spreadClient();
    await client.callTool({ name: 'echo', arguments: { message: 'warm both' } });
    await client.callTool({ name: 'echo', arguments: { message: 'warm both' } });
    const id = transport.sessionId ?? '';
    await waitFor(() => first.running.gateway.mcp.session(id) !== undefined && second.gateway.mcp.session(id) !== undefined, WAIT_MS, 'both replicas to hold the session');
    const deleted = await fetch(`${second.url}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${sam.token}`, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' } });
    expect(deleted.status).toBe(200);
    await waitFor(() => first.running.gateway.mcp.session(id) === undefined, WAIT_MS, 'the first replica to end the session');
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    for (const url of [first.url, second.url]) {
      const again = await fetch(`${url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${sam.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' }, body: ping });
      expect(again.status).toBe(404);
    }
  }, 60_000);
});

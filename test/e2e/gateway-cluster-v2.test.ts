/**
 * The gateway cluster end to end on the 2026-07-28 era (issue 20, "Done when" 1, second half): an
 * official SDK v2 client (`@modelcontextprotocol/client`) in `auto` negotiation, which probes with
 * `server/discover` and settles on 2026-07-28 (no session, no `initialize`), talks to three replicas
 * on one PostgreSQL database through HAProxy round-robin (deploy/haproxy.cfg's backend). Its 300
 * calls land on all three replicas (counted on each replica's /metrics) with no error and one
 * probe; the `subscriptions/listen` stream the client opens (it lands on one replica) hears
 * `notifications/tools/list_changed` within 1 s of a tool-rule edit made through each replica in
 * turn, two of which do not hold the stream.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { clusterTestBedMissing, mcpAnswers, startClusterTestBed, type ClusterTestBed } from '../helpers/cluster-test-bed.js';

const reason = await clusterTestBedMissing();

describe.skipIf(reason !== undefined)(`an SDK v2 client (auto negotiation) on three replicas behind HAProxy${reason === undefined ? '' : ` (skipped: ${reason})`}`, () => {
  let bed: ClusterTestBed;
  let client: V2Client | undefined;

  beforeAll(async () => {
    bed = await startClusterTestBed();
  }, 120_000);

  afterAll(async () => {
    await client?.close().catch(() => {});
    await bed?.close();
  }, 60_000);

  test('300 calls land on all three replicas; the listen stream hears list_changed within 1 s of an edit through any replica', async () => {
    const token = await bed.userToken('tess');
    const methods: string[] = [];
    const counting = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      if (typeof init?.body === 'string') methods.push((JSON.parse(init.body) as { method?: string }).method ?? 'response');
      return fetch(input, init);
    };
    let changed: ((tools: string[]) => void) | undefined;
    client = new V2Client(
      { name: 'cluster-e2e-v2', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' }, listChanged: { tools: { debounceMs: 0, onChanged: (_error, tools) => changed?.((tools ?? []).map((tool) => tool.name)) } } },
    );
    const before = await Promise.all(bed.replicas.map((replica) => mcpAnswers(replica, bed.adminToken)));
    // connect() resolves once the server acknowledged the subscriptions/listen stream it opens.
    await client.connect(new V2HttpTransport(new URL(`${bed.haproxy.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } }, fetch: counting }));
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(methods).toContain('subscriptions/listen');

    for (let index = 0; index < 300; index++) {
      const result = (await client.callTool({ name: 'echo', arguments: { message: `call ${index}` } })) as { isError?: boolean; content: Array<{ type: string; text?: string }> };
      expect(result.isError, result.content[0]?.text).not.toBe(true);
      expect(result.content[0]?.text).toContain(`call ${index}`);
    }
    const after = await Promise.all(bed.replicas.map((replica) => mcpAnswers(replica, bed.adminToken)));
    const served = after.map((count, index) => count - (before[index] ?? 0));
    console.log(`SDK v2 (2026-07-28): 300 calls per replica: ${served.join(', ')}`);
    for (const count of served) expect(count).toBeGreaterThanOrEqual(50);
    expect(methods.filter((method) => method === 'server/discover')).toHaveLength(1);
    expect(methods).not.toContain('initialize');

    const delays: number[] = [];
    for (const [index, tool] of ['add', 'image', 'audio'].entries()) {
      const replica = bed.replicas[index];
      if (replica === undefined) throw new Error('no replica');
      const notified = new Promise<string[]>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no tools list_changed on the listen stream within 5 s of an edit through replica ${index + 1}`)), 5_000);
        changed = (tools) => {
          if (tools.includes(tool)) return;
          clearTimeout(timer);
          resolve(tools);
        };
      });
      const started = performance.now();
      const rule = await fetch(`${replica.url}/api/rules`, { method: 'POST', headers: { authorization: `Bearer ${bed.adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ scope: { kind: 'user', name: 'tess' }, effect: 'deny', tools: [tool] }) });
      expect(rule.status, await rule.clone().text()).toBe(201);
      // The SDK re-lists the tools when it hears list_changed: the denied tool is gone from that list.
      const tools = await notified;
      delays.push(Math.round(performance.now() - started));
      expect(tools).toContain('echo');
      expect(tools).not.toContain(tool);
    }
    console.log(`SDK v2 (2026-07-28): list_changed (and the re-list) after an edit through replica 1, 2, 3: ${delays.join(', ')} ms`);
    for (const delay of delays) expect(delay).toBeLessThan(1_000);
    expect(methods.filter((method) => method === 'server/discover')).toHaveLength(1);
    expect(methods.filter((method) => method === 'subscriptions/listen')).toHaveLength(1);
  }, 120_000);
});

/**
 * What a 2025-era user is limited to and what a session set, across a gateway cluster (issue 20):
 * three replicas of the built `switchboard serve` on one PostgreSQL database behind a real HAProxy
 * with deploy/haproxy.cfg's backend (round-robin, no stickiness).
 * 1. A user with `maxConcurrentCalls: 4` sends 12 slow calls at once through HAProxy (one session,
 *    so the requests spread over the replicas): the upstream — one HTTP server all three replicas
 *    share, counting the calls it runs at once — never runs more than 4; the rest wait and complete.
 * 2. A session's log level and resource subscription, set through one replica, hold on another: a
 *    replica that resumes the session later reads them (its GET stream hears the resource update),
 *    and a replica that already holds the session applies them when they change elsewhere.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SecretBox } from '../../src/registry/secret-box.js';
import { ServerRegistry } from '../../src/registry/server-registry.js';
import { FIXTURES, KITCHEN_SINK, freePort, startHttpFixture, type HttpFixture } from '../helpers/fixtures.js';
import { HandSession, deployedBackend, type RpcMessage } from '../helpers/cluster-limits.js';
import { newToken } from '../helpers/gateway-process.js';
import { haproxyMissing, startHaproxy, type RunningHaproxy } from '../helpers/haproxy.js';
import { waitFor } from '../helpers/processes.js';
import { createTestDatabase, postgresUnavailableReason, type TestDatabase } from '../helpers/registry-backends.js';
import { startReplica, type ReplicaProcess } from '../helpers/replica-process.js';

const reason = process.env.CI === 'true' ? undefined : ((await postgresUnavailableReason()) ?? haproxyMissing());
const CONCURRENCY_SERVER = resolve(FIXTURES, 'concurrency-server.mjs');
const SUBSCRIPTION_SERVER = resolve(FIXTURES, 'subscription-server.mjs');

/** The text of a `tools/call` answer. */
function textOf(messages: readonly RpcMessage[]): string {
  const content = messages.at(-1)?.result?.content;
  return Array.isArray(content) ? String((content[0] as { text?: unknown } | undefined)?.text ?? '') : '';
}

describe.skipIf(reason !== undefined)(`three replicas behind HAProxy: limits and session state${reason === undefined ? '' : ` (skipped: ${reason})`}`, () => {
  let database: TestDatabase;
  let dir: string;
  let counter: HttpFixture;
  let registry: ServerRegistry;
  let haproxy: RunningHaproxy;
  const replicas: ReplicaProcess[] = [];
  const adminToken = newToken('admin');
  const secretKey = SecretBox.formatKey(SecretBox.generateKey());
  let tess: string;

  const replica = (index: number): string => {
    const found = replicas[index];
    if (found === undefined) throw new Error(`no replica ${index}`);
    return found.url;
  };

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    dir = mkdtempSync(join(tmpdir(), 'sb-cluster-limits-'));
    counter = await startHttpFixture(process.execPath, [CONCURRENCY_SERVER]);
    const config = join(dir, 'switchboard.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          counter: { url: counter.url('/mcp') },
          sink: { command: process.execPath, args: [KITCHEN_SINK] },
          watch: { command: process.execPath, args: [SUBSCRIPTION_SERVER] },
        },
      }),
    );
    const ports = [await freePort(), await freePort(), await freePort()];
    const start = (port: number): Promise<ReplicaProcess> => startReplica({ config, db: database.db, port, cwd: dir, token: adminToken, secretKey });
    replicas.push(await start(ports[0] ?? 0));
    replicas.push(...(await Promise.all(ports.slice(1).map((port) => start(port)))));
    registry = await ServerRegistry.open({ db: database.db, secretKey, watch: false });
    const user = await registry.users.add('tess', { policy: { maxConcurrentCalls: 4 } });
    tess = (await registry.tokens.create(user)).token;
    haproxy = await startHaproxy([{ name: 'switchboard', lines: deployedBackend(ports) }]);
    await waitFor(async () => (await haproxy.servers()).filter((server) => server.status === 'UP').length === 3, 15_000, 'HAProxy to see three replicas up');
    // Every replica knows the other two are live (its cluster view, which decides whether calls take leases).
    await waitFor(
      async () => {
        const views = await Promise.all(replicas.map(async (one) => (await (await fetch(`${one.url}/api/cluster`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as { replicas: unknown[] }));
        return views.every((view) => view.replicas.length === 3);
      },
      15_000,
      'every replica to see three live replicas',
    );
  }, 120_000);

  afterAll(async () => {
    await haproxy?.close();
    await Promise.all(replicas.map((one) => one.close()));
    await counter?.close();
    await registry?.close();
    await database?.drop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  test('a user limited to 4 concurrent calls runs 4 at once in the whole cluster, not 12; the others wait and complete', async () => {
    const client = new V1Client({ name: 'limits-e2e', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new V1HttpTransport(new URL(`${haproxy.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${tess}` } } }));
    try {
      // Every replica has the user's client (and its upstream sessions) before the measured calls.
      for (let index = 0; index < 6; index++) expect(((await client.callTool({ name: 'hold', arguments: { ms: 1 } })) as { isError?: boolean }).isError).not.toBe(true);
      await fetch(counter.url('/control/reset'));
      const started = performance.now();
      const results = await Promise.all(Array.from({ length: 12 }, () => client.callTool({ name: 'hold', arguments: { ms: 1_500 } }) as Promise<{ isError?: boolean; content: Array<{ text: string }> }>));
      const elapsedMs = Math.round(performance.now() - started);
      const stats = (await (await fetch(counter.url('/control/stats'))).json()) as { peak: number; calls: number };
      console.log(`12 calls of 1500 ms, limit 4, 3 replicas: upstream peak ${stats.peak} at once, ${stats.calls} calls, ${elapsedMs} ms in all`);
      for (const result of results) expect(result.content[0]?.text, result.content[0]?.text).toBe('held');
      expect(stats.calls).toBe(12);
      expect(stats.peak).toBeLessThanOrEqual(4);
      expect(stats.peak).toBeGreaterThanOrEqual(3);
      // Three rounds of at most 4: no call ran alongside more than 3 others.
      expect(elapsedMs).toBeGreaterThanOrEqual(3 * 1_500 - 100);
    } finally {
      await client.close();
    }
  }, 60_000);

  test('what a lease adds to a call: sequential calls of the limited user vs an unlimited admin, through HAProxy', async () => {
    const timed = async (token: string): Promise<number> => {
      const client = new V1Client({ name: 'limits-cost', version: '1.0.0' }, { capabilities: {} });
      await client.connect(new V1HttpTransport(new URL(`${haproxy.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      try {
        for (let index = 0; index < 30; index++) await client.callTool({ name: 'echo', arguments: { message: 'warm' } });
        const started = performance.now();
        for (let index = 0; index < 200; index++) {
          const result = (await client.callTool({ name: 'echo', arguments: { message: `m${index}` } })) as { content: Array<{ text: string }> };
          expect(result.content[0]?.text).toBe(`m${index}`);
        }
        return (performance.now() - started) / 200;
      } finally {
        await client.close();
      }
    };
    const admin = await timed(adminToken);
    const limited = await timed(tess);
    const adminAgain = await timed(adminToken);
    console.log(`ms per sequential call through HAProxy: admin (no limit) ${admin.toFixed(2)} and ${adminAgain.toFixed(2)}, tess (limit 4, a lease per call) ${limited.toFixed(2)}`);
    // Every one of tess's calls took a lease and gave it back (after its answer): none is left.
    const tessId = (await registry.users.get('tess')).id;
    await waitFor(async () => (await registry.callLeases.count(tessId)) === 0, 5_000, "tess's leases to be given back");
  }, 120_000);

  test('a subscription and log level set through one replica hold on a replica that resumes the session later, and on one that already holds it', async () => {
    const [a, b, c] = [replica(0), replica(1), replica(2)];
    // Set on A; B resumes the session afterwards with its GET stream.
    const later = new HandSession(tess);
    // B and C hold the session before anything is set; the change made through C reaches B.
    const early = new HandSession(tess);
    try {
      await later.open(a);
      await later.request(a, 'resources/subscribe', { uri: 'watch://a' });
      await later.request(a, 'logging/setLevel', { level: 'info' });
      const heard = await later.listen(b);
      expect(textOf(await later.request(b, 'tools/call', { name: 'touch', arguments: { uri: 'watch://a' } }))).toBe('sent');
      await HandSession.heard(heard, (message) => message.method === 'notifications/resources/updated' && message.params?.uri === 'watch://a', 'the resource update on the GET stream of the replica that resumed the session');
      const logged = await later.request(b, 'tools/call', { name: 'log', arguments: { message: 'carried' } });
      expect(logged.some((message) => message.method === 'notifications/message' && message.params?.level === 'warning')).toBe(true);

      await early.open(a);
      const earlyHeard = await early.listen(b);
      expect(textOf(await early.request(c, 'tools/call', { name: 'subscribed', arguments: {} }))).toBe('');
      await early.request(c, 'resources/subscribe', { uri: 'watch://b' });
      await early.request(c, 'logging/setLevel', { level: 'error' });
      // B applies what C stored (announced over LISTEN/NOTIFY): its upstream session subscribes too.
      await waitFor(async () => textOf(await early.request(b, 'tools/call', { name: 'subscribed', arguments: {} })).includes('watch://b'), 5_000, 'replica B to subscribe upstream for the session');
      expect(textOf(await early.request(b, 'tools/call', { name: 'touch', arguments: { uri: 'watch://b' } }))).toBe('sent');
      await HandSession.heard(earlyHeard, (message) => message.method === 'notifications/resources/updated' && message.params?.uri === 'watch://b', 'the resource update on B after a subscribe through C');
      // Level error: the warning is filtered on B as the client asked through C.
      const quiet = await early.request(b, 'tools/call', { name: 'log', arguments: { message: 'filtered' } });
      expect(quiet.some((message) => message.method === 'notifications/message')).toBe(false);
      await early.request(a, 'logging/setLevel', { level: 'debug' });
      await waitFor(async () => (await early.request(b, 'tools/call', { name: 'log', arguments: { message: 'again' } })).some((message) => message.method === 'notifications/message'), 5_000, 'B to apply the level set through A');
    } finally {
      await later.close(a);
      await early.close(a);
    }
  }, 60_000);
});

/**
 * The client pool over a real registry (both backends) and real server processes: one client per
 * user with only that user's servers, eviction (idle TTL, LRU, user removed) that ends processes,
 * refreshes limited to the user a change concerns, changes from another process, the per-user call
 * limit, the audit trail, and a tenant's HTTP server reached only through the pinned fetch.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ErrorCode, isSwitchboardError } from '../../../src/errors.js';
import { ClientPool, type ClientPoolEvents, type ClientPoolOptions, type UserClient, type UserClientEvents } from '../../../src/pool/index.js';
import { ServerRegistry } from '../../../src/registry/server-registry.js';
import { startDnsServer, type TestDnsServer } from '../../helpers/dns-server.js';
import { KITCHEN_SINK, freePort, startHttpFixture, type HttpFixture } from '../../helpers/fixtures.js';
import { groupMembers, isAlive, waitFor } from '../../helpers/processes.js';
import { nextEvent } from '../../helpers/next-event.js';
import { backendsToTest } from '../../helpers/registry-backends.js';
import { testDatabaseForEachTest } from '../../helpers/test-database-for-each-test.js';

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startDnsServer({ 'sink.example.test': ['127.0.0.1'] });
});
afterAll(async () => dns.close());


function pidOf(client: UserClient, server = 'mine'): number {
  const pid = client.status().find((status) => status.name === server)?.pid;
  if (pid === undefined) throw new Error(`server ${server} has no process`);
  return pid;
}

for (const { kind, skip } of await backendsToTest()) {
  describe.skipIf(skip !== undefined)(`client pool on ${kind}${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
    const database = testDatabaseForEachTest(kind);
    let registry: ServerRegistry;
    let pool: ClientPool | undefined;
    const open = (): Promise<ServerRegistry> => ServerRegistry.open({ db: database.db, keyFile: join(database.dir, 'secret.key'), resolveHost: dns.resolver, watchIntervalMs: 25 });
    const makePool = (options: ClientPoolOptions = {}): ClientPool => {
      pool = new ClientPool(registry, { resolveHost: dns.resolver, clientOptions: { retryFailedServers: false }, ...options });
      return pool;
    };

    beforeEach(async () => {
      registry = await open();
      await registry.templates.add('sink', {
        command: process.execPath,
        args: [KITCHEN_SINK, '--name', '{{label}}', '--tools', '{{tools}}'],
        parameters: [
          { name: 'label', type: 'string', pattern: '[a-z0-9-]{1,20}' },
          { name: 'tools', type: 'string', pattern: '[a-z_]{1,30}(,[a-z_]{1,30}){0,4}' },
        ],
      });
      for (const name of ['alice', 'bob']) {
        await registry.users.add(name);
        await registry.servers.add(name, 'mine', { template: 'sink', parameters: { label: name, tools: `${name}_tool` } });
      }
    });
    afterEach(async () => {
      await pool?.close();
      pool = undefined;
      await registry.close();
    });

    test('one client per user, with that user\'s servers only; calls are audited per user', async () => {
      const pool = makePool();
      const alice = await pool.acquire('alice');
      const bob = await pool.acquire('bob');
      try {
        expect(alice.client).not.toBe(bob.client);
        expect(alice.client.listTools().map((tool) => tool.name)).toContain('alice_tool');
        expect(alice.client.listTools().map((tool) => tool.name)).not.toContain('bob_tool');
        expect(bob.client.listTools().map((tool) => tool.name)).toContain('bob_tool');
        expect((await alice.client.callTool('alice_tool', { x: 'hi' })).isError).toBe(false);
        const error = await alice.client.callTool('bob_tool', { x: 'hi' }).catch((caught: unknown) => caught);
        expect(isSwitchboardError(error) && error.code).toBe(ErrorCode.ToolNotFound);
        const again = await pool.acquire({ id: alice.client.user.id });
        expect(again.client).toBe(alice.client);
        again.release();
        expect(pool.size).toBe(2);
      } finally {
        alice.release();
        bob.release();
      }
      await pool.close();
      const audit = await registry.audit.list({ user: 'alice' });
      expect(audit.map((entry) => [entry.userName, entry.server, entry.tool, entry.ok, entry.errorCode, entry.arguments])).toEqual([
        ['alice', undefined, 'bob_tool', false, 'TOOL_NOT_FOUND', undefined],
        ['alice', 'mine', 'alice_tool', true, undefined, undefined],
      ]);
      expect(await registry.audit.list({ user: 'bob' })).toEqual([]);
    });

    test('an idle client is evicted after its TTL and its server process ends; a leased one is kept', async () => {
      const pool = makePool({ idleTtlMs: 150, sweepIntervalMs: 25 });
      const lease = await pool.acquire('alice');
      const pid = pidOf(lease.client);
      expect(isAlive(pid)).toBe(true);
      expect(await pool.evictIdle(Date.now() + 60_000)).toBe(0);
      expect(isAlive(pid)).toBe(true);
      const evicted = nextEvent<ClientPoolEvents, 'client-evicted'>(pool, 'client-evicted');
      lease.release();
      expect(await evicted).toMatchObject({ user: 'alice', reason: 'idle' });
      expect(isAlive(pid)).toBe(false);
      expect(groupMembers(pid)).toEqual([]);
      expect(pool.size).toBe(0);
      // The next use starts it again.
      const next = await pool.acquire('alice');
      expect(pidOf(next.client)).not.toBe(pid);
      next.release();
    });

    test('leaseNow: the client at once once it is up, a lease that keeps it from eviction, nothing while closing', async () => {
      const pool = makePool({ idleTtlMs: 150 });
      const user = await registry.users.get('alice');
      expect(pool.leaseNow(user)).toBeUndefined();
      const first = await pool.acquire(user);
      first.release();
      const now = pool.leaseNow(user);
      expect(now?.client).toBe(first.client);
      expect(await pool.evictIdle(Date.now() + 60_000)).toBe(0);
      now?.release();
      now?.release();
      expect(await pool.evictIdle(Date.now() + 60_000)).toBe(1);
      expect(pool.leaseNow(user)).toBeUndefined();
      const again = await pool.acquire(user);
      again.release();
      const closing = pool.close();
      expect(pool.leaseNow(user)).toBeUndefined();
      await closing;
    });

    test('over the cap, the least recently used idle client is evicted with its processes', async () => {
      const pool = makePool({ maxClients: 1 });
      const alice = await pool.acquire('alice');
      const alicePid = pidOf(alice.client);
      alice.release();
      const evicted = nextEvent<ClientPoolEvents, 'client-evicted'>(pool, 'client-evicted');
      const bob = await pool.acquire('bob');
      expect(await evicted).toMatchObject({ user: 'alice', reason: 'lru' });
      expect(isAlive(alicePid)).toBe(false);
      expect(isAlive(pidOf(bob.client))).toBe(true);
      expect(pool.has(alice.client.user.id)).toBe(false);
      bob.release();
    });

    test('a change for one user reconfigures only that user\'s client, in place: unchanged servers keep their process and stats', async () => {
      const pool = makePool();
      const alice = await pool.acquire('alice');
      const bob = await pool.acquire('bob');
      const alicePid = pidOf(alice.client);
      const aliceInner = alice.client.client;
      expect((await alice.client.callTool('alice_tool', {})).isError).toBe(false);
      const bobInner = bob.client.client;
      const bobEvents: unknown[] = [];
      bob.client.on('tools-changed', (event) => bobEvents.push(event));
      const refreshed: string[] = [];
      pool.on('client-refreshed', ({ user }) => refreshed.push(user));
      const changed = nextEvent<UserClientEvents, 'tools-changed'>(alice.client, 'tools-changed', (event) => event.reason === 'reload');
      await registry.servers.add('alice', 'extra', { template: 'sink', parameters: { label: 'extra', tools: 'alice_extra' } });
      const event = await changed;
      expect(event.added).toContain('alice_extra');
      // The shared names of the sink became prefixed: renamed, never removed.
      expect(event.removed).toEqual([]);
      expect(alice.client.listTools().map((tool) => tool.name)).toContain('alice_extra');
      expect(await alice.client.callTool('alice_extra', {})).toMatchObject({ isError: false });
      // The server that did not change kept its process, and its figures.
      expect(pidOf(alice.client)).toBe(alicePid);
      expect(alice.client.client).toBe(aliceInner);
      expect(alice.client.stats().servers.find((server) => server.server === 'mine')?.calls).toBe(1);
      expect(refreshed).toEqual(['alice']);
      expect(bob.client.client).toBe(bobInner);
      expect(bobEvents).toEqual([]);
      // Disabling removes the tools again, and ends that server's process only.
      const extraPid = pidOf(alice.client, 'extra');
      const removed = nextEvent<UserClientEvents, 'tools-changed'>(alice.client, 'tools-changed', (change) => change.removed.includes('alice_extra'));
      await registry.servers.setEnabled('alice', 'extra', false);
      await removed;
      await waitFor(() => !isAlive(extraPid), 10_000, 'the disabled server process to end');
      expect(isAlive(alicePid)).toBe(true);
      alice.release();
      bob.release();
    });

    test('a call running on a server that a change replaces finishes there; then the old process ends', async () => {
      const pool = makePool();
      const lease = await pool.acquire('alice');
      const oldPid = pidOf(lease.client);
      const running = lease.client.callTool('sleep', { ms: 400 });
      await waitFor(() => lease.client.activeCalls === 1, 5_000, 'the call to start');
      const reloaded = nextEvent<UserClientEvents, 'tools-changed'>(lease.client, 'tools-changed', (event) => event.reason === 'reload');
      await registry.servers.update('alice', 'mine', { template: 'sink', parameters: { label: 'alice', tools: 'alice_tool,alice_more' } });
      const event = await reloaded;
      expect(event.added).toEqual(['alice_more']);
      const newPid = pidOf(lease.client);
      expect(newPid).not.toBe(oldPid);
      expect(isAlive(oldPid)).toBe(true);
      expect((await running).isError).toBe(false);
      await waitFor(() => !isAlive(oldPid), 10_000, 'the replaced server process to end after its call');
      expect((await lease.client.callTool('alice_more', {})).isError).toBe(false);
      lease.release();
    });

    test('a shared server reaches every user\'s client', async () => {
      const pool = makePool();
      const alice = await pool.acquire('alice');
      const bob = await pool.acquire('bob');
      const both = Promise.all(
        [alice, bob].map((lease) => nextEvent<UserClientEvents, 'tools-changed'>(lease.client, 'tools-changed', (event) => event.added.includes('shared_tool'))),
      );
      await registry.servers.add(null, 'company', { command: process.execPath, args: [KITCHEN_SINK, '--tools', 'shared_tool'] });
      await both;
      expect((await bob.client.callTool('shared_tool', {})).isError).toBe(false);
      alice.release();
      bob.release();
    });

    test('a change made by another process reaches the pool', async () => {
      const pool = makePool();
      const alice = await pool.acquire('alice');
      const changed = nextEvent<UserClientEvents, 'tools-changed'>(alice.client, 'tools-changed', (event) => event.added.includes('from_elsewhere'));
      const other = await ServerRegistry.open({ db: database.db, keyFile: join(database.dir, 'secret.key'), resolveHost: dns.resolver, watch: false });
      try {
        await other.servers.add('alice', 'elsewhere', { template: 'sink', parameters: { label: 'elsewhere', tools: 'from_elsewhere' } });
      } finally {
        await other.close();
      }
      await changed;
      alice.release();
    });

    test('removing a user evicts their client', async () => {
      const pool = makePool();
      const lease = await pool.acquire('bob');
      const pid = pidOf(lease.client);
      const evicted = nextEvent<ClientPoolEvents, 'client-evicted'>(pool, 'client-evicted');
      await registry.users.remove('bob');
      expect(await evicted).toMatchObject({ user: 'bob', reason: 'user-removed' });
      expect(isAlive(pid)).toBe(false);
      await expect(lease.client.callTool('bob_tool', {})).rejects.toMatchObject({ code: ErrorCode.ServerDisconnected });
    });

    test('the per-user call limit queues calls, and fails them after the queue timeout', async () => {
      await registry.users.setPolicy('alice', { maxConcurrentCalls: 1 });
      const pool = makePool({ callQueueTimeoutMs: 1_000 });
      const lease = await pool.acquire('alice');
      const client = lease.client;
      const order: string[] = [];
      const slow = client.callTool('sleep', { ms: 150 }).then(() => order.push('sleep'));
      await waitFor(() => client.activeCalls === 1, 5_000, 'the first call to start');
      const quick = client.callTool('echo', { message: 'x' }).then(() => order.push('echo'));
      expect(client.waitingCalls).toBe(1);
      await Promise.all([slow, quick]);
      expect(order).toEqual(['sleep', 'echo']);

      const abort = new AbortController();
      const blocking = client.callTool('sleep', { ms: 20_000 }, { signal: abort.signal }).catch((error: unknown) => error);
      await waitFor(() => client.activeCalls === 1, 5_000, 'the blocking call to start');
      const refused = await client.callTool('echo', { message: 'y' }).catch((error: unknown) => error);
      expect(isSwitchboardError(refused) && refused.code).toBe(ErrorCode.LimitExceeded);
      abort.abort();
      expect(isSwitchboardError(await blocking) && (await blocking as { code: string }).code).toBe(ErrorCode.RequestCancelled);
      // Bob has his own limit (the default), untouched by Alice's.
      const bob = await pool.acquire('bob');
      await Promise.all([bob.client.callTool('sleep', { ms: 50 }), bob.client.callTool('sleep', { ms: 50 })]);
      bob.release();
      lease.release();
    });

    test('a tenant HTTP server is reached through the pinned fetch; a tightened policy cuts it off', async () => {
      const port = await freePort();
      const fixture: HttpFixture = await startHttpFixture(process.execPath, [KITCHEN_SINK, '--http', String(port)], { port });
      try {
        await registry.setPolicy({ allowHttpHosts: ['sink.example.test'], allowAddresses: ['127.0.0.1/32'] });
        await registry.users.add('carol');
        await registry.servers.add('carol', 'remote', { url: `http://sink.example.test:${port}/mcp`, apiKey: 'carol-key-0000000000000000' });
        const pool = makePool();
        const lease = await pool.acquire('carol');
        expect(lease.client.status().find((status) => status.name === 'remote')?.state).toBe('ready');
        expect(await lease.client.callTool('echo', { message: 'through the pin' })).toMatchObject({ content: [{ type: 'text', text: 'through the pin' }] });
        const cut = nextEvent<UserClientEvents, 'tools-changed'>(lease.client, 'tools-changed', (event) => event.removed.includes('echo'));
        await registry.setPolicy({ allowAddresses: [] });
        await cut;
        const status = lease.client.status().find((entry) => entry.name === 'remote');
        expect(status?.state).toBe('failed');
        expect(status?.error?.code).toBe(ErrorCode.PolicyViolation);
        expect(status?.error?.message).toContain('sink.example.test resolves to 127.0.0.1, which is a loopback address');
        lease.release();
      } finally {
        await fixture.close();
      }
    });
  });
}

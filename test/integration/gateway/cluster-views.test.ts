/**
 * The parts of the cluster-wide views (issue 20) on a real PostgreSQL database, in process: the event
 * relay between two registries on one database (a replica listens to a user's client only while the
 * user is watched on another; progress ticks coalesce; a replica that starts later hears the watchers
 * at once), the per-replica statistics added up, and SQLite, where nothing is relayed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ClusterEventRelay, type RemoteUserEvent } from '../../../src/gateway/cluster-event-relay.js';
import { ClusterStats } from '../../../src/gateway/cluster-stats.js';
import { noopLogger } from '../../../src/logger.js';
import { StatsCollector } from '../../../src/metrics/stats-collector.js';
import type { UserClientEvents } from '../../../src/pool/index.js';
import { SecretBox } from '../../../src/registry/secret-box.js';
import { ServerRegistry } from '../../../src/registry/server-registry.js';
import { TypedEmitter } from '../../../src/util/typed-emitter.js';
import { waitFor } from '../../helpers/processes.js';
import { createTestDatabase, postgresUnavailableReason, type TestDatabase } from '../../helpers/registry-backends.js';

/** A user client's events, fired by the test. */
class FakeClient extends TypedEmitter<UserClientEvents> {
  fire<K extends keyof UserClientEvents>(event: K, payload: UserClientEvents[K]): void {
    this.emit(event, payload);
  }
}

const reason = process.env.CI === 'true' ? undefined : await postgresUnavailableReason();

describe.skipIf(reason !== undefined)(`cluster-wide views on PostgreSQL${reason === undefined ? '' : ` (skipped: ${reason})`}`, () => {
  let database: TestDatabase;
  const registries: ServerRegistry[] = [];
  const closing: Array<{ close(): Promise<void> }> = [];
  const secretKey = SecretBox.formatKey(SecretBox.generateKey());
  const open = async (): Promise<ServerRegistry> => {
    const registry = await ServerRegistry.open({ db: database.db, secretKey });
    registries.push(registry);
    return registry;
  };
  const relayOn = (registry: ServerRegistry, id: string): ClusterEventRelay => {
    const relay = new ClusterEventRelay(registry, id, noopLogger);
    closing.push(relay);
    return relay;
  };

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  }, 30_000);

  afterAll(async () => {
    for (const part of closing) await part.close();
    for (const registry of registries) await registry.close();
    await database?.drop();
  }, 30_000);

  test("a user's events reach the other replica's streams only while watched there, progress ticks coalesced", async () => {
    const [here, there] = [await open(), await open()];
    const a = relayOn(here, 'replica-a');
    const b = relayOn(there, 'replica-b');
    const client = new FakeClient();
    b.track('u1', client);
    expect(client.listenerCount('tool-call-end')).toBe(0);
    const received: RemoteUserEvent[] = [];
    const unsubscribe = a.subscribe('u1', (event) => received.push(event));
    await waitFor(() => client.listenerCount('tool-call-end') === 1, 5_000, 'replica B to listen to u1 once A watches u1');
    const call = { callId: 7, name: 'slow', server: 'sink', originalName: 'slow', userId: 'u1' };
    client.fire('tool-call-start', call);
    for (let progress = 1; progress <= 50; progress++) client.fire('tool-progress', { ...call, progress, total: 50 });
    client.fire('tool-call-end', { ...call, durationMs: 9, ok: true, isError: false });
    await waitFor(() => received.some((event) => event.event === 'tool-call-end'), 5_000, 'the end of the call on A');
    expect(received.map((event) => event.event)).toEqual(['tool-call-start', 'tool-progress', 'tool-call-end']);
    expect(received[1]?.payload).toMatchObject({ progress: 50, total: 50 });
    expect(received.every((event) => event.replica === 'replica-b')).toBe(true);
    unsubscribe();
    await waitFor(() => client.listenerCount('tool-call-end') === 0, 5_000, 'replica B to stop listening once nobody watches u1');
  }, 30_000);

  test('a replica that starts later hears the watchers at once (it asks), not at the next announcement', async () => {
    const here = await open();
    // No repeated announcement during the test: only the answer to `ask` can tell the new replica.
    const a = new ClusterEventRelay(here, 'replica-c', noopLogger, { announceMs: 60_000 });
    closing.push(a);
    const announced = new Promise<void>((resolve) => here.on('cluster-message', (payload) => payload.includes('"u2"') && resolve()));
    const unsubscribe = a.subscribe('u2', () => {});
    // Delivered (to A's own LISTEN connection too) before the later replica's connection exists.
    await announced;
    const later = await open();
    const b = relayOn(later, 'replica-d');
    const client = new FakeClient();
    b.track('u2', client);
    await waitFor(() => client.listenerCount('tool-call-end') === 1, 5_000, 'the new replica to hear that u2 is watched');
    unsubscribe();
  }, 30_000);

  test('/api/stats numbers of two replicas add up, over the replicas alive', async () => {
    const [here, there] = [await open(), await open()];
    for (const id of ['stats-a', 'stats-b']) await here.cluster.heartbeat({ id, url: undefined, startedAt: new Date().toISOString() });
    const [a, b] = [new ClusterStats(here, 'stats-a', noopLogger, 60_000), new ClusterStats(there, 'stats-b', noopLogger, 60_000)];
    closing.push(a, b);
    const collector = (calls: number): StatsCollector => {
      const stats = new StatsCollector();
      for (let index = 0; index < calls; index++) {
        stats.callStarted('sink', 'echo');
        stats.callEnded({ server: 'sink', tool: 'echo', durationMs: 1, ok: true, isError: false });
      }
      return stats;
    };
    const states = new Map([['sink', 'ready']]);
    const [local, remote] = [collector(2), collector(5)];
    b.track('u3', { stats: () => remote.snapshot(states) });
    await b.write();
    const merged = await a.forUser('u3', local.snapshot(states));
    expect(merged.replicas).toBe(2);
    expect(merged.servers.find((server) => server.server === 'sink')?.calls).toBe(7);
    // B goes: its rows with it.
    await b.close();
    await here.cluster.leave('stats-b');
    const alone = await a.forUser('u3', local.snapshot(states));
    expect(alone).toMatchObject({ replicas: 1 });
    expect(alone.servers.find((server) => server.server === 'sink')?.calls).toBe(2);
  }, 30_000);
});

test('on SQLite (one replica) nothing is relayed and /api/stats answers as before', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-views-sqlite-'));
  const registry = await ServerRegistry.open({ db: join(dir, 'registry.db'), secretKey: SecretBox.formatKey(SecretBox.generateKey()) });
  try {
    const relay = new ClusterEventRelay(registry, 'solo', noopLogger);
    const stats = new ClusterStats(registry, 'solo', noopLogger);
    const client = new FakeClient();
    relay.track('u1', client);
    relay.subscribe('u1', () => {})();
    expect(client.listenerCount('tool-call-end')).toBe(0);
    const local = new StatsCollector().snapshot(new Map());
    expect(await stats.forUser('u1', local)).toBe(local);
    await relay.close();
    await stats.close();
  } finally {
    await registry.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * A replica's heartbeat on a real SQLite registry: the first beat puts it in the cluster, a row not
 * seen for the expiry is out (and deleted later), leaving deletes the row, and the beat forgets
 * ended sessions older than a session id lives.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { REPLICA_EXPIRY_MS, REPLICA_FORGET_MS, ReplicaHeartbeat } from '../../../src/gateway/replica-heartbeat.js';
import { SESSION_MAX_AGE_MS } from '../../../src/gateway/session-seal.js';
import { noopLogger } from '../../../src/logger.js';
import { ServerRegistry } from '../../../src/registry/server-registry.js';
import { waitFor } from '../../helpers/processes.js';

let dir: string;
let registry: ServerRegistry;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sb-heartbeat-'));
  registry = await ServerRegistry.open({ db: join(dir, 'r.db'), keyFile: join(dir, 'secret.key'), watch: false });
});

afterEach(async () => {
  await registry.close();
  rmSync(dir, { recursive: true, force: true });
});

test('joins on start, expires when silent, leaves on close', async () => {
  const now = Date.now();
  // A replica that died: seen longer ago than the expiry, but not yet forgotten; and one long gone.
  await registry.cluster.heartbeat({ id: 'dead', url: 'http://10.0.0.9:7410', startedAt: new Date(now - 60_000).toISOString() }, new Date(now - REPLICA_EXPIRY_MS - 1_000));
  await registry.cluster.heartbeat({ id: 'gone', url: undefined, startedAt: new Date(now - 3_600_000).toISOString() }, new Date(now - REPLICA_FORGET_MS - 1_000));
  const heartbeat = new ReplicaHeartbeat(registry.cluster, noopLogger, 20);
  expect(heartbeat.inCluster).toBe(false);
  await heartbeat.start('http://127.0.0.1:7411');
  expect(heartbeat.inCluster).toBe(true);
  const status = await heartbeat.status();
  expect(status.replicas.map((replica) => replica.id)).toEqual([heartbeat.id]);
  expect(status.replicas[0]?.url).toBe('http://127.0.0.1:7411');
  // The dead one is still a row (forgotten later), the long-gone one is deleted.
  expect((await registry.cluster.replicas(REPLICA_FORGET_MS * 10, REPLICA_FORGET_MS)).map((replica) => replica.id).sort()).toEqual([heartbeat.id, 'dead'].sort());
  const first = status.replicas[0]?.lastSeen ?? '';
  await waitFor(async () => ((await heartbeat.status()).replicas[0]?.lastSeen ?? '') > first, 5_000, 'a later beat');
  await heartbeat.close();
  expect(heartbeat.inCluster).toBe(false);
  expect((await registry.cluster.replicas(REPLICA_EXPIRY_MS, REPLICA_FORGET_MS)).map((replica) => replica.id)).toEqual([]);
});

test('ended sessions older than a session id lives are forgotten by the beat; newer ones stay', async () => {
  const old = 'a'.repeat(64);
  const recent = 'b'.repeat(64);
  await registry.cluster.endSession(old, 'u', new Date(Date.now() - SESSION_MAX_AGE_MS - 60_000));
  await registry.cluster.endSession(recent, 'u');
  const heartbeat = new ReplicaHeartbeat(registry.cluster, noopLogger, 20);
  await heartbeat.start(undefined);
  try {
    await waitFor(async () => (await registry.cluster.endedAmong([old])).size === 0, 5_000, 'the old ended session to be forgotten');
    expect([...(await registry.cluster.endedAmong([old, recent]))]).toEqual([recent]);
  } finally {
    await heartbeat.close();
  }
});

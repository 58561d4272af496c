/**
 * Users' concurrent-call limits across a cluster, on a real PostgreSQL database: the lease store
 * (`switchboard_take_call_lease` under a per-user advisory lock) never lets concurrent takes from
 * two processes exceed the limit, counts only unexpired leases of live replicas, and announces a
 * release at the limit over LISTEN/NOTIFY; the {@link ClusterCallLimiter} waits for that notice
 * (not its recheck timer), refuses with LIMIT_EXCEEDED after its bounded wait, and stays off the
 * database for a replica alone and on SQLite.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { noopLogger } from '../../../src/logger.js';
import { ClusterCallLimiter, type ClusterMembership } from '../../../src/pool/cluster-call-limiter.js';
import { ServerRegistry } from '../../../src/registry/server-registry.js';
import { SecretBox } from '../../../src/registry/secret-box.js';
import { waitFor } from '../../helpers/processes.js';
import { createTestDatabase, postgresUnavailableReason, type TestDatabase } from '../../helpers/registry-backends.js';

const reason = process.env.CI === 'true' ? undefined : await postgresUnavailableReason();
const EXPIRY_MS = 10_000;

function membership(replicaId: string, live: () => number): ClusterMembership {
  return { replicaId: () => replicaId, liveReplicas: live, replicaExpiryMs: EXPIRY_MS };
}

describe.skipIf(reason !== undefined)(`call leases on PostgreSQL${reason === undefined ? '' : ` (skipped: ${reason})`}`, () => {
  let database: TestDatabase;
  let a: ServerRegistry;
  let b: ServerRegistry;
  const secretKey = SecretBox.formatKey(SecretBox.generateKey());

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    a = await ServerRegistry.open({ db: database.db, secretKey });
    b = await ServerRegistry.open({ db: database.db, secretKey });
    await a.cluster.heartbeat({ id: 'ra', url: undefined, startedAt: new Date().toISOString() });
    await a.cluster.heartbeat({ id: 'rb', url: undefined, startedAt: new Date().toISOString() });
  }, 60_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  const take = (registry: ServerRegistry, userId: string, replicaId: string, limit = 4, expiresMs = Date.now() + EXPIRY_MS) => {
    const now = Date.now();
    return registry.callLeases.take({ id: randomUUID(), userId, replicaId, limit, nowMs: now, expiresMs, liveSince: new Date(now - EXPIRY_MS) });
  };

  test('12 concurrent takes from two processes get exactly 4 leases; a release frees one place', async () => {
    const user = `u-${randomUUID()}`;
    const answers = await Promise.all(Array.from({ length: 12 }, (_, index) => take(index % 2 === 0 ? a : b, user, index % 2 === 0 ? 'ra' : 'rb')));
    expect(answers.filter((answer) => answer.taken).length).toBe(4);
    expect(answers.filter((answer) => !answer.taken).every((answer) => answer.held === 4)).toBe(true);
    expect(await a.callLeases.count(user)).toBe(4);
    const id = randomUUID();
    const now = Date.now();
    expect((await a.callLeases.take({ id, userId: user, replicaId: 'ra', limit: 5, nowMs: now, expiresMs: now + EXPIRY_MS, liveSince: new Date(now - EXPIRY_MS) })).taken).toBe(true);
    expect((await take(b, user, 'rb', 5)).taken).toBe(false);
    await a.callLeases.release(id, 5);
    expect((await take(b, user, 'rb', 5)).taken).toBe(true);
  });

  test('leases of a replica whose heartbeat is stale, and expired leases, do not count', async () => {
    const user = `u-${randomUUID()}`;
    await a.cluster.heartbeat({ id: 'dead', url: undefined, startedAt: new Date().toISOString() }, new Date(Date.now() - EXPIRY_MS - 1_000));
    // Taken while "dead" still counted as live (its lease is written), then it is stale.
    const now = Date.now();
    expect((await a.callLeases.take({ id: randomUUID(), userId: user, replicaId: 'dead', limit: 1, nowMs: now, expiresMs: now + EXPIRY_MS, liveSince: new Date(now - 60_000) })).taken).toBe(true);
    expect((await take(a, user, 'ra', 1)).taken).toBe(true);
    const other = `u-${randomUUID()}`;
    expect((await take(a, other, 'ra', 1, Date.now() - 1)).taken).toBe(true);
    expect((await take(a, other, 'ra', 1)).taken).toBe(true);
  });

  test('a release at the limit is announced to the other process; below the limit it is not', async () => {
    const user = `u-${randomUUID()}`;
    const heard: string[] = [];
    const onReleased = ({ userId }: { userId: string }): void => void heard.push(userId);
    b.on('call-lease-released', onReleased);
    try {
      const ids = [randomUUID(), randomUUID()];
      const now = Date.now();
      for (const id of ids) await a.callLeases.take({ id, userId: user, replicaId: 'ra', limit: 2, nowMs: now, expiresMs: now + EXPIRY_MS, liveSince: new Date(now - EXPIRY_MS) });
      await a.callLeases.release(ids[0] ?? '', 2);
      await waitFor(() => heard.includes(user), 5_000, 'the release notice');
      heard.length = 0;
      await a.callLeases.release(ids[1] ?? '', 2);
      // A marker released at its limit after it: once the marker is heard, the first would have been.
      const marker = `u-${randomUUID()}`;
      const markerId = randomUUID();
      await a.callLeases.take({ id: markerId, userId: marker, replicaId: 'ra', limit: 1, nowMs: now, expiresMs: now + EXPIRY_MS, liveSince: new Date(now - EXPIRY_MS) });
      await a.callLeases.release(markerId, 1);
      await waitFor(() => heard.includes(marker), 5_000, 'the marker notice');
      expect(heard).toEqual([marker]);
    } finally {
      b.off('call-lease-released', onReleased);
    }
  });

  test('a call waiting on one replica starts when a call on the other ends (woken by the notice); a bounded wait ends with LIMIT_EXCEEDED', async () => {
    const user = { id: `u-${randomUUID()}`, name: 'tess' };
    // The recheck timer is a minute: only the notice can wake the waiting call in time.
    const onA = new ClusterCallLimiter(a, membership('ra', () => 2), { logger: noopLogger, recheckMs: 60_000 });
    const onB = new ClusterCallLimiter(b, membership('rb', () => 2), { logger: noopLogger, recheckMs: 60_000 });
    try {
      let finish: (() => void) | undefined;
      const running = onA.run(user, 1, () => new Promise<string>((resolve) => (finish = () => resolve('first'))), { waitMs: 5_000 });
      await waitFor(() => finish !== undefined, 5_000, 'the first call to run');
      expect(await a.callLeases.count(user.id)).toBe(1);
      const started = performance.now();
      let secondRan = false;
      let secondAt = 0;
      const waiting = onB.run(user, 1, async () => {
        secondRan = true;
        secondAt = performance.now();
        return 'second';
      }, { waitMs: 20_000 });
      await waitFor(() => onB.waiting === 1, 5_000, 'the second call to wait');
      expect(secondRan).toBe(false);
      const finishedAt = performance.now();
      finish?.();
      expect(await running).toBe('first');
      expect(await waiting).toBe('second');
      console.log(`a call waiting on replica B started ${Math.round(secondAt - finishedAt)} ms after the call on A ended`);
      expect(performance.now() - started).toBeLessThan(5_000);

      let hold: (() => void) | undefined;
      const holding = onA.run(user, 1, () => new Promise<void>((resolve) => (hold = resolve)), { waitMs: 5_000 });
      await waitFor(() => hold !== undefined, 5_000, 'a call holding the only place');
      const refused = await onB.run(user, 1, async () => 'ran', { waitMs: 300 }).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { limit: 1, scope: 'cluster' } });
      expect(String((refused as Error).message)).toMatch(/user "tess" has 1 calls running across the cluster's 2 replicas, the limit; waited \d+ ms/);
      const controller = new AbortController();
      const cancelled = onB.run(user, 1, async () => 'ran', { waitMs: 20_000, signal: controller.signal }).catch((error: unknown) => error);
      await waitFor(() => onB.waiting === 1, 5_000, 'a call to wait');
      controller.abort();
      expect(await cancelled).toMatchObject({ code: 'REQUEST_CANCELLED' });
      hold?.();
      await holding;
    } finally {
      onA.close();
      onB.close();
    }
  });

  test('a replica whose clock runs a minute ahead still counts the others\' leases, and its heartbeat is on the database\'s time', async () => {
    const user = { id: `u-${randomUUID()}`, name: 'skewed' };
    const onA = new ClusterCallLimiter(a, membership('ra', () => 2), { logger: noopLogger });
    const onB = new ClusterCallLimiter(b, membership('rb', () => 2), { logger: noopLogger });
    const realNow = Date.now;
    try {
      await a.cluster.heartbeat({ id: 'ra', url: undefined, startedAt: new Date().toISOString() });
      let hold: (() => void) | undefined;
      const holding = onA.run(user, 1, () => new Promise<void>((resolve) => (hold = resolve)), { waitMs: 5_000 });
      await waitFor(() => hold !== undefined, 5_000, 'a call on A holding the only place');
      // From here this process is a host whose clock is a minute ahead (replica B's); its heartbeat measures the difference.
      Date.now = () => realNow() + 60_000;
      await b.cluster.heartbeat({ id: 'rb', url: undefined, startedAt: new Date().toISOString() });
      expect(b.clock.offsetMs).toBeLessThan(-55_000);
      const refused = await onB.run(user, 1, async () => 'ran', { waitMs: 300 }).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { limit: 1, scope: 'cluster' } });
      const seen = (await a.cluster.replicas(EXPIRY_MS, 600_000, new Date(realNow()))).find((replica) => replica.id === 'rb');
      expect(Math.abs(Date.parse(seen?.lastSeen ?? '') - realNow())).toBeLessThan(5_000);
      hold?.();
      await holding;
    } finally {
      Date.now = realNow;
      await b.clock.sync();
      onA.close();
      onB.close();
    }
  });

  test('a call that started while its replica was alone gets a lease once another replica is live, and gives it back when it ends', async () => {
    const user = { id: `u-${randomUUID()}`, name: 'early' };
    let live = 1;
    const onA = new ClusterCallLimiter(a, membership('ra', () => live), { logger: noopLogger, renewMs: 50 });
    try {
      let finish: (() => void) | undefined;
      const running = onA.run(user, 1, () => new Promise<void>((resolve) => (finish = resolve)), { waitMs: 1_000 });
      await waitFor(() => finish !== undefined, 5_000, 'the call to run');
      expect(await a.callLeases.count(user.id)).toBe(0);
      live = 2;
      await waitFor(async () => (await a.callLeases.count(user.id)) === 1, 5_000, 'the running call to be given a lease');
      expect((await take(b, user.id, 'rb', 1)).taken).toBe(false);
      finish?.();
      await running;
      await waitFor(async () => (await a.callLeases.count(user.id)) === 0, 5_000, 'its lease to be given back');
    } finally {
      onA.close();
    }
  });

  test('a replica alone takes no lease (no database work per call)', async () => {
    const user = { id: `u-${randomUUID()}`, name: 'solo' };
    const alone = new ClusterCallLimiter(a, membership('ra', () => 1), { logger: noopLogger });
    try {
      let counted = -1;
      await alone.run(user, 4, async () => {
        counted = await a.callLeases.count(user.id);
      }, { waitMs: 1_000 });
      expect(counted).toBe(0);
      expect(alone.applies(4)).toBe(false);
    } finally {
      alone.close();
    }
  });
});

test('on SQLite the limiter never applies and the store refuses to share', async () => {
  const database = await createTestDatabase('sqlite');
  const registry = await ServerRegistry.open({ db: database.db, keyFile: `${database.dir}/secret.key`, watch: false });
  try {
    const limiter = new ClusterCallLimiter(registry, membership('r1', () => 3), { logger: noopLogger });
    expect(limiter.applies(4)).toBe(false);
    expect(await limiter.run({ id: 'u', name: 'u' }, 4, async () => 'local', { waitMs: 100 })).toBe('local');
    limiter.close();
    await expect(registry.callLeases.take({ id: 'x', userId: 'u', replicaId: 'r1', limit: 1, nowMs: 0, expiresMs: 1, liveSince: new Date() })).rejects.toMatchObject({ code: 'INTERNAL' });
  } finally {
    await registry.close();
    await database.drop();
  }
});

/**
 * The cluster gate over a fake lease store (the real one is tested on PostgreSQL in
 * test/integration/registry/call-leases.test.ts): what it does when the database fails, that a
 * release announced while a take is on its way is not missed, and that held leases are renewed.
 */
import { afterEach, expect, test, vi } from 'vitest';
import type { CallLeaseRequest } from '../registry/call-lease-store.js';
import { TypedEmitter } from '../util/typed-emitter.js';
import { ClusterCallLimiter, type CallLeaseSource } from './cluster-call-limiter.js';

interface Events {
  'call-lease-released': { userId: string };
}

class FakeSource extends TypedEmitter<Events> implements CallLeaseSource {
  readonly held = new Map<string, CallLeaseRequest>();
  readonly renewed: string[][] = [];
  takes = 0;
  failTakes = false;
  /** Runs during a refused take, before its answer arrives. */
  duringRefusal: (() => void) | undefined;
  readonly clock = { now: (): number => Date.now() };
  readonly callLeases = {
    shared: true,
    take: async (request: CallLeaseRequest): Promise<{ taken: boolean; held: number }> => {
      this.takes++;
      if (this.failTakes) throw new Error('connection refused');
      const held = [...this.held.values()].filter((lease) => lease.userId === request.userId).length;
      if (held < request.limit) this.held.set(request.id, request);
      else this.duringRefusal?.();
      return { taken: held < request.limit, held };
    },
    adopt: async (leases: ReadonlyArray<{ id: string; userId: string; replicaId: string; expiresMs: number }>): Promise<void> => {
      for (const lease of leases) this.held.set(lease.id, { ...lease, limit: 0, liveSince: new Date(), nowMs: 0 });
    },
    release: async (id: string): Promise<void> => {
      this.held.delete(id);
    },
    renew: async (_replicaId: string, ids: readonly string[]): Promise<void> => {
      this.renewed.push([...ids]);
    },
      forgetExpired: async (): Promise<number> => 0,
  };

  /** Another replica's release, as the change feed reports it. */
  announce(userId: string): void {
    this.emit('call-lease-released', { userId });
  }
}

const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn(), child: () => logger };
const member = { replicaId: () => 'r1', liveReplicas: () => 2, replicaExpiryMs: 10_000 };
const user = { id: 'u1', name: 'tess' };

afterEach(() => {
  vi.useRealTimers();
  vi.clearAllMocks();
});

test('when the database fails, calls run under the local limit and the failure is logged once', async () => {
  const source = new FakeSource();
  source.failTakes = true;
  const limiter = new ClusterCallLimiter(source, member, { logger });
  try {
    expect(await limiter.run(user, 1, async () => 'one', { waitMs: 1_000 })).toBe('one');
    expect(await limiter.run(user, 1, async () => 'two', { waitMs: 1_000 })).toBe('two');
    expect(logger.warn).toHaveBeenCalledTimes(1);
    source.failTakes = false;
    expect(await limiter.run(user, 1, async () => 'three', { waitMs: 1_000 })).toBe('three');
    expect(logger.info).toHaveBeenCalledWith('call leases reach the database again');
  } finally {
    limiter.close();
  }
});

test('a release heard while a refused take was on its way makes the call try again at once', async () => {
  const source = new FakeSource();
  // A minute between rechecks: only the missed-release check can start the call in time.
  const limiter = new ClusterCallLimiter(source, member, { logger, recheckMs: 60_000 });
  try {
    source.held.set('other', { id: 'other', userId: 'u1', replicaId: 'r2', limit: 1, expiresMs: 0, liveSince: new Date(), nowMs: 0 });
    source.duringRefusal = () => {
      source.duringRefusal = undefined;
      source.held.delete('other');
      source.announce('u1');
    };
    const started = performance.now();
    expect(await limiter.run(user, 1, async () => 'ran', { waitMs: 30_000 })).toBe('ran');
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(source.takes).toBe(2);
  } finally {
    limiter.close();
  }
});

test('the leases of running calls are renewed; none is left once they end; closing fails a waiting call', async () => {
  vi.useFakeTimers();
  const source = new FakeSource();
  const limiter = new ClusterCallLimiter(source, member, { logger, renewMs: 100 });
  let finish: (() => void) | undefined;
  const running = limiter.run(user, 2, () => new Promise<void>((resolve) => (finish = resolve)), { waitMs: 1_000 });
  await vi.advanceTimersByTimeAsync(250);
  expect(source.renewed.length).toBe(2);
  expect(source.renewed[0]).toEqual([...source.held.keys()]);
  finish?.();
  await running;
  await vi.advanceTimersByTimeAsync(0);
  expect(limiter.held).toBe(0);
  expect(source.held.size).toBe(0);
  await vi.advanceTimersByTimeAsync(500);
  expect(source.renewed.length).toBe(2);
  source.held.set('other', { id: 'other', userId: 'u1', replicaId: 'r2', limit: 1, expiresMs: 0, liveSince: new Date(), nowMs: 0 });
  const waiting = limiter.run(user, 1, async () => 'ran', { waitMs: 10_000 }).catch((error: unknown) => error);
  await vi.advanceTimersByTimeAsync(0);
  expect(limiter.waiting).toBe(1);
  limiter.close();
  expect(await waiting).toMatchObject({ code: 'SERVER_DISCONNECTED' });
});

test('only a finite limit on a shared database is the gate\'s to count; otherwise callers may skip it', () => {
  const source = new FakeSource();
  const gate = new ClusterCallLimiter(source, member, { logger });
  expect(gate.passes(Number.POSITIVE_INFINITY)).toBe(true);
  expect(gate.passes(4)).toBe(false);
  (source.callLeases as { shared: boolean }).shared = false;
  expect(gate.passes(4)).toBe(true);
  gate.close();
});

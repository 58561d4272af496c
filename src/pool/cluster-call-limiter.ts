/**
 * @module pool/cluster-call-limiter
 * A user's concurrent-call limit across the replicas of a gateway cluster on PostgreSQL: a call
 * that passed the replica's own {@link CallLimiter} takes a lease in `call_leases` (one round trip:
 * see `CallLeaseStore`) and gives it back when it ends (one more, not awaited by the call). When
 * the user's leases are all taken it waits: a release at the limit is announced over LISTEN/NOTIFY
 * (`call-lease-released`), and the call tries again then, or every {@link CALL_LEASE_RECHECK_MS}
 * (a notice may be lost, a dead replica's leases lapse without one), up to what is left of the
 * queue timeout. Off the path entirely on SQLite, for users without a finite limit, and while this
 * replica is the only live one (it has nobody to share the limit with). The leases held here are
 * renewed every {@link CALL_LEASE_RENEW_MS}; a lease not renewed for {@link CALL_LEASE_TTL_MS}
 * stops counting. Calls that started while the replica was alone are given leases at the first
 * renewal tick after another replica is live, so the limit counts them from then on. When the database cannot be reached the call runs under the local limit only
 * (logged once): an outage of the shared limit does not stop every call.
 */

import { randomUUID } from 'node:crypto';
import { ErrorCode, SwitchboardError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { CallLeaseStore } from '../registry/call-lease-store.js';
import type { ServerRegistryEvents } from '../registry/server-registry.js';
import type { CallGate, CallGateOptions, GatedUser } from './call-gate.js';

/** A lease not renewed for this long stops counting. @default 10000 */
export const CALL_LEASE_TTL_MS = 10_000;
/** How often this replica renews the leases of its running calls. @default 2000 */
export const CALL_LEASE_RENEW_MS = 2_000;
/** A waiting call tries again at least this often, notice or not. @default 500 */
export const CALL_LEASE_RECHECK_MS = 500;
/** Leases expired this long ago are deleted (by any replica, every {@link FORGET_EVERY_RENEWALS}th renewal). */
const FORGET_EXPIRED_AFTER_MS = 60_000;
const FORGET_EVERY_RENEWALS = 30;

/** Where this replica stands in the cluster. */
export interface ClusterMembership {
  /** This replica's id; undefined before it joined. */
  replicaId(): string | undefined;
  /** Live replicas, this one included. */
  liveReplicas(): number;
  /** A replica not seen for this long is out (its leases count no more). */
  readonly replicaExpiryMs: number;
}

/** What the limiter needs of the registry. */
export interface CallLeaseSource {
  readonly callLeases: Pick<CallLeaseStore, 'shared' | 'take' | 'release' | 'adopt' | 'renew' | 'forgetExpired'>;
  /** The database's clock: leases are compared across replicas, so never by this host's own. */
  readonly clock: { now(): number };
  on(event: 'call-lease-released', listener: (event: ServerRegistryEvents['call-lease-released']) => void): unknown;
  off(event: 'call-lease-released', listener: (event: ServerRegistryEvents['call-lease-released']) => void): unknown;
}

/** Options of a {@link ClusterCallLimiter}. */
export interface ClusterCallLimiterOptions {
  logger: Logger;
  /** @default CALL_LEASE_RECHECK_MS */
  recheckMs?: number;
  /** @default CALL_LEASE_TTL_MS */
  leaseTtlMs?: number;
  /** @default CALL_LEASE_RENEW_MS */
  renewMs?: number;
}

/** The cluster-wide gate of users' calls. */
export class ClusterCallLimiter implements CallGate {
  readonly #source: CallLeaseSource;
  readonly #membership: ClusterMembership;
  readonly #logger: Logger;
  readonly #recheckMs: number;
  readonly #leaseTtlMs: number;
  readonly #renewMs: number;
  /** Leases held here: id → the replica it was taken for. */
  readonly #held = new Map<string, string>();
  /**
   * Limited calls running here without a lease (this replica was alone when they started): once
   * another replica is live they are given leases, so the limit counts them too.
   */
  readonly #unleased = new Set<{ userId: string; limit: number; leaseId: string | undefined }>();
  /** Waiting calls per user: woken by a release (here or announced). */
  readonly #waiters = new Map<string, Set<() => void>>();
  /**
   * Per user with calls taking a lease now: how many, and the releases heard meanwhile (a release
   * between a refused take and the wait is not missed). Dropped when the user's last take is done.
   */
  readonly #taking = new Map<string, { calls: number; releases: number }>();
  readonly #onReleased: (event: { userId: string }) => void;
  #renewTimer: NodeJS.Timeout | undefined;
  #renewals = 0;
  #failing = false;
  #closed = false;

  constructor(source: CallLeaseSource, membership: ClusterMembership, options: ClusterCallLimiterOptions) {
    this.#source = source;
    this.#membership = membership;
    this.#logger = options.logger;
    this.#recheckMs = options.recheckMs ?? CALL_LEASE_RECHECK_MS;
    this.#leaseTtlMs = options.leaseTtlMs ?? CALL_LEASE_TTL_MS;
    this.#renewMs = options.renewMs ?? CALL_LEASE_RENEW_MS;
    this.#onReleased = ({ userId }) => this.#wake(userId);
    source.on('call-lease-released', this.#onReleased);
  }

  /** Leases held by calls running here. */
  get held(): number {
    return this.#held.size;
  }

  /** Calls of this replica waiting for a lease. */
  get waiting(): number {
    let count = 0;
    for (const waiters of this.#waiters.values()) count += waiters.size;
    return count;
  }

  /** True when a call under `limit` needs a lease now (shared database, finite limit, more than one live replica). */
  applies(limit: number): boolean {
    return !this.#closed && Number.isFinite(limit) && this.#source.callLeases.shared && this.#membership.replicaId() !== undefined && this.#membership.liveReplicas() > 1;
  }

  passes(limit: number): boolean {
    return this.#closed || !Number.isFinite(limit) || !this.#source.callLeases.shared;
  }

  async run<T>(user: GatedUser, limit: number, task: () => Promise<T>, options: CallGateOptions): Promise<T> {
    if (this.passes(limit)) return task();
    const replicaId = this.#membership.replicaId();
    if (!this.applies(limit) || replicaId === undefined) return this.#runUnleased(user.id, limit, task);
    const id = randomUUID();
    const taking = this.#taking.get(user.id) ?? { calls: 0, releases: 0 };
    this.#taking.set(user.id, taking);
    taking.calls++;
    let taken: boolean;
    try {
      taken = await this.#acquire(id, replicaId, user, limit, options, taking);
    } finally {
      if (--taking.calls === 0) this.#taking.delete(user.id);
    }
    if (!taken) return task();
    try {
      return await task();
    } finally {
      this.#release(id, user.id, limit);
    }
  }

  /** A limited call of a replica alone: no database work, but known, so a later lease can count it. */
  async #runUnleased<T>(userId: string, limit: number, task: () => Promise<T>): Promise<T> {
    const call = { userId, limit, leaseId: undefined as string | undefined };
    this.#unleased.add(call);
    this.#startTicking();
    try {
      return await task();
    } finally {
      this.#unleased.delete(call);
      if (call.leaseId !== undefined) this.#release(call.leaseId, userId, limit);
    }
  }

  /** Stops renewing and fails the waiting calls (their pool is closing). Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#source.off('call-lease-released', this.#onReleased);
    if (this.#renewTimer !== undefined) clearInterval(this.#renewTimer);
    this.#renewTimer = undefined;
    for (const userId of [...this.#waiters.keys()]) this.#wake(userId);
  }

  /** True once the lease is taken; false when the database failed (the call runs under the local limit). */
  async #acquire(id: string, replicaId: string, user: GatedUser, limit: number, options: CallGateOptions, taking: { releases: number }): Promise<boolean> {
    const started = Date.now();
    const deadline = started + options.waitMs;
    for (;;) {
      if (options.signal?.aborted === true) throw cancelled();
      if (this.#closed) throw new SwitchboardError(ErrorCode.ServerDisconnected, 'the gateway is shutting down', { details: { retryable: true } });
      const seen = taking.releases;
      let answer: { taken: boolean; held: number };
      try {
        const now = this.#source.clock.now();
        answer = await this.#source.callLeases.take({ id, userId: user.id, replicaId, limit, nowMs: now, expiresMs: now + this.#leaseTtlMs, liveSince: new Date(now - this.#membership.replicaExpiryMs) });
      } catch (error) {
        if (!this.#failing) this.#logger.warn('cannot take a call lease: calls run under this replica\'s own limit until the database answers', { error: String(error) });
        this.#failing = true;
        return false;
      }
      if (this.#failing) this.#logger.info('call leases reach the database again');
      this.#failing = false;
      if (answer.taken) {
        this.#held.set(id, replicaId);
        this.#startTicking();
        return true;
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new SwitchboardError(ErrorCode.LimitExceeded, `user "${user.name}" has ${answer.held} calls running across the cluster's ${this.#membership.liveReplicas()} replicas, the limit; waited ${Date.now() - started} ms for one to end`, {
          hint: 'make fewer calls at once, or an admin can raise maxConcurrentCalls',
          details: { limit, retryable: true, scope: 'cluster' },
        });
      }
      // A release announced while the take was on its way: try again at once.
      if (taking.releases !== seen) continue;
      await this.#waitForRelease(user.id, Math.min(left, this.#recheckMs), options.signal);
    }
  }

  #waitForRelease(userId: string, ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiters = this.#waiters.get(userId) ?? new Set<() => void>();
      this.#waiters.set(userId, waiters);
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        waiters.delete(wake);
        if (waiters.size === 0 && this.#waiters.get(userId) === waiters) this.#waiters.delete(userId);
      };
      const wake = (): void => {
        done();
        resolve();
      };
      const onAbort = (): void => {
        done();
        reject(cancelled());
      };
      const timer = setTimeout(wake, ms);
      waiters.add(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #wake(userId: string): void {
    const taking = this.#taking.get(userId);
    if (taking !== undefined) taking.releases++;
    for (const wake of [...(this.#waiters.get(userId) ?? [])]) wake();
  }

  #release(id: string, userId: string, limit: number): void {
    this.#held.delete(id);
    // Not awaited by the call: its answer does not wait for the database. Local waiters try once it is gone.
    void this.#source.callLeases
      .release(id, limit)
      .then(() => this.#wake(userId))
      .catch((error: unknown) => this.#logger.warn('cannot give back a call lease (it lapses by itself)', { error: String(error) }));
  }

  /** The timer that renews held leases and gives the unleased calls theirs; it stops when there are neither. */
  #startTicking(): void {
    if (this.#renewTimer !== undefined || this.#closed) return;
    this.#renewTimer = setInterval(() => void this.#tick(), this.#renewMs);
    this.#renewTimer.unref();
  }

  async #tick(): Promise<void> {
    if (this.#held.size === 0 && this.#unleased.size === 0) {
      clearInterval(this.#renewTimer);
      this.#renewTimer = undefined;
      return;
    }
    await this.#adopt();
    if (this.#held.size > 0) await this.#renew();
  }

  /** Leases for the calls that started while this replica was alone, once it is not. */
  async #adopt(): Promise<void> {
    const replicaId = this.#membership.replicaId();
    const calls = [...this.#unleased].filter((call) => call.leaseId === undefined);
    if (calls.length === 0 || replicaId === undefined || !this.applies(1)) return;
    const expiresMs = this.#source.clock.now() + this.#leaseTtlMs;
    const leases = calls.map((call) => ({ id: randomUUID(), userId: call.userId, replicaId, expiresMs }));
    try {
      await this.#source.callLeases.adopt(leases);
    } catch (error) {
      this.#logger.warn('cannot record the leases of calls started before this replica had company', { error: String(error) });
      return;
    }
    calls.forEach((call, index) => {
      const lease = leases[index];
      if (lease === undefined) return;
      // A call that ended meanwhile gives its new lease back at once.
      if (!this.#unleased.has(call)) {
        this.#source.callLeases.release(lease.id, call.limit).catch(() => {});
        return;
      }
      call.leaseId = lease.id;
      this.#held.set(lease.id, replicaId);
    });
  }

  async #renew(): Promise<void> {
    const byReplica = new Map<string, string[]>();
    for (const [id, replicaId] of this.#held) byReplica.set(replicaId, [...(byReplica.get(replicaId) ?? []), id]);
    const now = this.#source.clock.now();
    try {
      for (const [replicaId, ids] of byReplica) await this.#source.callLeases.renew(replicaId, ids, now + this.#leaseTtlMs);
      if (++this.#renewals % FORGET_EVERY_RENEWALS === 0) await this.#source.callLeases.forgetExpired(now - FORGET_EXPIRED_AFTER_MS);
    } catch (error) {
      this.#logger.warn('cannot renew call leases', { error: String(error) });
    }
  }
}

function cancelled(): SwitchboardError {
  return new SwitchboardError(ErrorCode.RequestCancelled, 'cancelled while waiting for a free call slot');
}

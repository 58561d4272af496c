/**
 * @module registry/call-lease-store
 * Leases of calls under a user's concurrent-call limit, shared by the replicas of a cluster on
 * PostgreSQL (migration 008). A take is one round trip (`switchboard_take_call_lease`: a per-user
 * advisory lock, a count of the unexpired leases of live replicas, an insert when below the
 * limit); a release is one more, which NOTIFYs `switchboard_call_leases` when the user was at the
 * limit, so replicas with waiting calls try again. A replica renews its leases while their calls
 * run; the leases of a replica that died stop counting once its heartbeat is stale (or their
 * expiry passes), without anyone deleting them. Not used on SQLite (one replica: the limit stays
 * in process).
 */

import { sql } from 'kysely';
import { ErrorCode, SwitchboardError } from '../errors.js';
import type { RegistryContext } from './registry-context.js';
import { timestamp } from './registry-context.js';

/** The channel a release is announced on when the user was at the limit (payload: the user id). */
export const CALL_LEASES_CHANNEL = 'switchboard_call_leases';

/** One lease request. */
export interface CallLeaseRequest {
  /** A new id of this lease (unique in the cluster). */
  id: string;
  userId: string;
  replicaId: string;
  limit: number;
  /** When the lease stops counting unless renewed. */
  expiresMs: number;
  /** Leases of replicas not seen since this count no more. */
  liveSince: Date;
  nowMs: number;
}

/** Call leases in the registry database (PostgreSQL). */
export class CallLeaseStore {
  readonly #context: RegistryContext;

  constructor(context: RegistryContext) {
    this.#context = context;
  }

  /** True when the backend shares leases between processes (PostgreSQL). */
  get shared(): boolean {
    return this.#context.backend === 'postgres';
  }

  /** Takes a lease when the user has fewer than `limit` live ones; answers whether it did and how many were held. */
  async take(request: CallLeaseRequest): Promise<{ taken: boolean; held: number }> {
    this.#requireShared();
    const result = await sql<{ held: number }>`select switchboard_take_call_lease(${request.id}, ${request.userId}, ${request.replicaId}, ${request.limit}, ${request.nowMs}, ${request.expiresMs}, ${timestamp(request.liveSince)}) as held`.execute(this.#context.db);
    const held = Number(result.rows[0]?.held ?? 0);
    return { taken: held < request.limit, held };
  }

  /** Gives a lease back (announcing it when the user was at `limit`). Releasing a lease twice is harmless. */
  async release(id: string, limit: number, nowMs: number = this.#context.clock.now()): Promise<void> {
    this.#requireShared();
    await sql`select switchboard_release_call_lease(${id}, ${limit}, ${nowMs})`.execute(this.#context.db);
  }

  /**
   * Records leases of calls that started while their replica was alone (they took none then) and are
   * still running: they count from now on, whatever the limit, since those calls do run.
   */
  async adopt(leases: ReadonlyArray<{ id: string; userId: string; replicaId: string; expiresMs: number }>): Promise<void> {
    if (leases.length === 0) return;
    await this.#context.db
      .insertInto('call_leases')
      .values(leases.map((lease) => ({ id: lease.id, user_id: lease.userId, replica_id: lease.replicaId, expires_ms: lease.expiresMs })))
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
  }

  /** Moves the expiry of the given leases of `replicaId` to `expiresMs` (their calls still run). */
  async renew(replicaId: string, ids: readonly string[], expiresMs: number): Promise<void> {
    if (ids.length === 0) return;
    await this.#context.db.updateTable('call_leases').set({ expires_ms: expiresMs }).where('replica_id', '=', replicaId).where('id', 'in', [...ids]).execute();
  }

  /** Deletes leases expired before `beforeMs` (they count no more anyway); returns how many. */
  async forgetExpired(beforeMs: number): Promise<number> {
    const result = await this.#context.db.deleteFrom('call_leases').where(sql<boolean>`expires_ms < ${beforeMs}`).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The unexpired leases of `userId` (for tests and `/api/cluster`). */
  async count(userId: string, nowMs: number = this.#context.clock.now()): Promise<number> {
    const row = await this.#context.db.selectFrom('call_leases').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where(sql<boolean>`expires_ms > ${nowMs}`).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  #requireShared(): void {
    if (!this.shared) throw new SwitchboardError(ErrorCode.Internal, 'call leases are shared on PostgreSQL only', { hint: 'on SQLite the concurrent-call limit stays in the gateway process' });
  }
}

/**
 * @module registry/replica-stats-store
 * Each gateway replica's snapshot of its users' call statistics (`client.stats()` as JSON), so that
 * `/api/stats` on any replica can add up the whole cluster (issue 20). A replica rewrites its rows on
 * its heartbeat timer, never on the per-call path; rows of replicas that left or expired are ignored
 * by readers and deleted with the replica.
 */

import { sql } from 'kysely';
import type { RegistryContext } from './registry-context.js';
import { timestamp } from './registry-context.js';

/** One replica's snapshot of one user's statistics. */
export interface ReplicaUserStats {
  replicaId: string;
  /** `client.stats()` as the replica serialized it (the reader checks its shape). */
  stats: string;
  updatedAt: string;
}

/** The per-replica statistics rows. */
export class ReplicaStatsStore {
  readonly #context: RegistryContext;

  constructor(context: RegistryContext) {
    this.#context = context;
  }

  /**
   * Replaces replica `replicaId`'s snapshots: `changed` rows are written, and rows of users not in
   * `current` (their client closed) are deleted.
   */
  async save(replicaId: string, changed: ReadonlyArray<{ userId: string; stats: string }>, current: readonly string[], now: Date = new Date()): Promise<void> {
    const updatedAt = timestamp(now);
    await this.#context.db.transaction().execute(async (trx) => {
      let stale = trx.deleteFrom('replica_user_stats').where('replica_id', '=', replicaId);
      if (current.length > 0) stale = stale.where('user_id', 'not in', [...current]);
      await stale.execute();
      if (changed.length === 0) return;
      await trx
        .insertInto('replica_user_stats')
        .values(changed.map((row) => ({ replica_id: replicaId, user_id: row.userId, stats: row.stats, updated_at: updatedAt })))
        .onConflict((conflict) => conflict.columns(['replica_id', 'user_id']).doUpdateSet({ stats: sql`excluded.stats`, updated_at: sql`excluded.updated_at` }))
        .execute();
    });
  }

  /** The snapshots of `userId` written by the replicas in `replicaIds`. */
  async forUser(userId: string, replicaIds: readonly string[]): Promise<ReplicaUserStats[]> {
    if (replicaIds.length === 0) return [];
    const rows = await this.#context.db.selectFrom('replica_user_stats').selectAll().where('user_id', '=', userId).where('replica_id', 'in', [...replicaIds]).execute();
    return rows.map((row) => ({ replicaId: row.replica_id, stats: row.stats, updatedAt: row.updated_at }));
  }

  /** Deletes replica `replicaId`'s rows (it leaves the cluster). */
  async forget(replicaId: string): Promise<void> {
    await this.#context.db.deleteFrom('replica_user_stats').where('replica_id', '=', replicaId).execute();
  }

  /** Deletes the rows of replicas that no longer have a heartbeat row. */
  async forgetGoneReplicas(): Promise<number> {
    const result = await this.#context.db
      .deleteFrom('replica_user_stats')
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('replicas').select('replicas.id').whereRef('replicas.id', '=', 'replica_user_stats.replica_id'))))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

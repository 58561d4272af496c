/**
 * @module registry/migrations/009-replica-stats
 * Per-user call statistics of each gateway replica (issue 20, cluster-wide views): every replica
 * writes the snapshot of its users' `client.stats()` at heartbeat cadence, and `/api/stats` on any
 * replica adds up the snapshots of the live replicas to its own numbers.
 */

import type { Kysely, Migration } from 'kysely';

/** Creates `replica_user_stats`. */
export const replicaStatsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('replica_user_stats')
      .addColumn('replica_id', 'text', (column) => column.notNull())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('stats', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .addPrimaryKeyConstraint('replica_user_stats_pk', ['replica_id', 'user_id'])
      .execute();
    await db.schema.createIndex('replica_user_stats_user').on('replica_user_stats').column('user_id').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('replica_user_stats').execute();
  },
};

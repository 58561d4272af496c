/**
 * @module registry/migrations/006-cluster
 * The gateway cluster (issue 20): the replicas that share this database, each with its heartbeat, and
 * the 2025-era sessions a client ended (any replica may resume a session from its id, so an ended
 * one is remembered until its id expires).
 */

import type { Kysely, Migration } from 'kysely';

/** Creates `replicas` and `ended_sessions`. */
export const clusterMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('replicas')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('url', 'text')
      .addColumn('started_at', 'text', (column) => column.notNull())
      .addColumn('last_seen', 'text', (column) => column.notNull())
      .execute();
    await db.schema
      .createTable('ended_sessions')
      .addColumn('digest', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('ended_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('ended_sessions_ended_at').on('ended_sessions').column('ended_at').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('ended_sessions').execute();
    await db.schema.dropTable('replicas').execute();
  },
};

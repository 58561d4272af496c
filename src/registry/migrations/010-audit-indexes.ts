/**
 * @module registry/migrations/010-audit-indexes
 * The audit log's indexes as its one query reads it (issue 17). Every tool call through the gateway
 * writes a row, and each index is one more B-tree written per row. `audit_log_time` (`created_at`) served
 * no query: the log is read newest first by `id`, a UUIDv7 that sorts by time. `audit_log_user_time`
 * (`user_id, created_at`) could not give one user's rows in `id` order. Both are replaced by one index on
 * `(user_id, id)`: one B-tree less per call, and a user's newest entries read straight from it.
 */

import type { Kysely, Migration } from 'kysely';

/** Drops `audit_log_time` and `audit_log_user_time`; creates `audit_log_user_id`. */
export const auditIndexesMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('audit_log_time').ifExists().execute();
    await db.schema.dropIndex('audit_log_user_time').ifExists().execute();
    await db.schema.createIndex('audit_log_user_id').on('audit_log').columns(['user_id', 'id']).execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('audit_log_user_id').ifExists().execute();
    await db.schema.createIndex('audit_log_user_time').on('audit_log').columns(['user_id', 'created_at']).execute();
    await db.schema.createIndex('audit_log_time').on('audit_log').column('created_at').execute();
  },
};

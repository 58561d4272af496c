/**
 * @module registry/migrations/004-endpoints
 * Groups of users, tool rules, named endpoints, rate limits and their shared buckets (issue 21), and the columns of the
 * audit log that say which policy decision a row records and which rule made it.
 */

import type { Kysely, Migration } from 'kysely';

/** Creates `user_groups`, `group_members`, `tool_rules`, `endpoints`, `rate_limits`; widens `audit_log`. */
export const endpointsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('user_groups')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull().unique())
      .addColumn('description', 'text')
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema
      .createTable('group_members')
      .addColumn('group_id', 'text', (column) => column.notNull().references('user_groups.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addPrimaryKeyConstraint('group_members_pk', ['group_id', 'user_id'])
      .execute();
    await db.schema.createIndex('group_members_user').on('group_members').column('user_id').execute();
    await db.schema
      .createTable('tool_rules')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('definition', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema
      .createTable('endpoints')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull().unique())
      .addColumn('owner_id', 'text', (column) => column.references('users.id').onDelete('cascade'))
      .addColumn('definition', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema
      .createTable('rate_limits')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('definition', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .execute();
    // Rate-limit buckets shared by every replica (see registry/rate-bucket-store).
    await db.schema
      .createTable('rate_buckets')
      .addColumn('key', 'text', (column) => column.primaryKey())
      .addColumn('tokens', 'double precision', (column) => column.notNull())
      .addColumn('at_ms', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema.alterTable('audit_log').addColumn('endpoint', 'text').execute();
    await db.schema.alterTable('audit_log').addColumn('decision', 'text').execute();
    await db.schema.alterTable('audit_log').addColumn('rule', 'text').execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    for (const table of ['rate_buckets', 'rate_limits', 'endpoints', 'tool_rules', 'group_members', 'user_groups']) await db.schema.dropTable(table).ifExists().execute();
    for (const column of ['rule', 'decision', 'endpoint']) await db.schema.alterTable('audit_log').dropColumn(column).execute();
  },
};

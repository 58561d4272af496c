/**
 * @module registry/migrations/001-initial
 * The first schema. Written once for both backends: only types and constraints both understand.
 */

import { sql, type Kysely, type Migration } from 'kysely';

/** Creates every table of the registry. */
export const initialMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull().unique())
      .addColumn('is_admin', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('policy', 'text')
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .execute();

    await db.schema
      .createTable('server_templates')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull().unique())
      .addColumn('description', 'text')
      .addColumn('definition', 'text', (column) => column.notNull())
      .addColumn('secrets', 'text')
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .execute();

    await db.schema
      .createTable('servers')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('owner_id', 'text', (column) => column.references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('kind', 'text', (column) => column.notNull())
      .addColumn('template_id', 'text', (column) => column.references('server_templates.id'))
      .addColumn('entry', 'text', (column) => column.notNull())
      .addColumn('secrets', 'text')
      .addColumn('enabled', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .execute();
    // NULL owners (shared servers) are distinct in a plain unique index on both backends; the
    // expression makes "unique name per owner" hold for shared servers too.
    await sql`create unique index servers_owner_name on servers (coalesce(owner_id, ''), name)`.execute(db);
    await db.schema.createIndex('servers_owner').on('servers').column('owner_id').execute();

    await db.schema
      .createTable('api_tokens')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text')
      .addColumn('prefix', 'text', (column) => column.notNull().unique())
      .addColumn('token_hash', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('last_used_at', 'text')
      .addColumn('expires_at', 'text')
      .execute();
    await db.schema.createIndex('api_tokens_user').on('api_tokens').column('user_id').execute();

    // No foreign key: the audit trail outlives the users and servers it mentions.
    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text')
      .addColumn('user_name', 'text')
      .addColumn('server', 'text')
      .addColumn('tool', 'text')
      .addColumn('ok', 'integer', (column) => column.notNull())
      .addColumn('error_code', 'text')
      .addColumn('duration_ms', 'integer', (column) => column.notNull())
      .addColumn('arguments', 'text')
      .addColumn('created_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('audit_log_user_time').on('audit_log').columns(['user_id', 'created_at']).execute();
    await db.schema.createIndex('audit_log_time').on('audit_log').column('created_at').execute();

    await db.schema
      .createTable('user_secrets')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', 'text', (column) => column.notNull())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('secret', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .addUniqueConstraint('user_secrets_user_kind_name', ['user_id', 'kind', 'name'])
      .execute();

    await db.schema
      .createTable('settings')
      .addColumn('key', 'text', (column) => column.primaryKey())
      .addColumn('value', 'text', (column) => column.notNull())
      .execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    for (const table of ['settings', 'user_secrets', 'audit_log', 'api_tokens', 'servers', 'server_templates', 'users']) {
      await db.schema.dropTable(table).ifExists().execute();
    }
  },
};

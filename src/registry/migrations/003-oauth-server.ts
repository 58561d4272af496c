/**
 * @module registry/migrations/003-oauth-server
 * The gateway's own OAuth authorization server (issue 18): what `oidc-provider` stores (clients,
 * grants, codes, tokens, sessions, interactions) in one table, keyed by a SHA-256 of the record's id
 * (for codes and tokens the id IS the credential, so only its hash is kept), and the server's keys.
 */

import type { Kysely, Migration } from 'kysely';

/** Creates `oauth_records` and `oauth_keys`. */
export const oauthServerMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('oauth_records')
      .addColumn('model', 'text', (column) => column.notNull())
      .addColumn('id_hash', 'text', (column) => column.notNull())
      .addColumn('payload', 'text', (column) => column.notNull())
      .addColumn('grant_id', 'text')
      .addColumn('uid_hash', 'text')
      .addColumn('account_id', 'text')
      .addColumn('client_id', 'text')
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('expires_at', 'text')
      .addColumn('consumed_at', 'text')
      .addPrimaryKeyConstraint('oauth_records_pk', ['model', 'id_hash'])
      .execute();
    await db.schema.createIndex('oauth_records_grant').on('oauth_records').column('grant_id').execute();
    await db.schema.createIndex('oauth_records_uid').on('oauth_records').columns(['model', 'uid_hash']).execute();
    await db.schema.createIndex('oauth_records_account').on('oauth_records').columns(['model', 'account_id']).execute();
    await db.schema
      .createTable('oauth_keys')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('secret', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('oauth_keys').ifExists().execute();
    await db.schema.dropTable('oauth_records').ifExists().execute();
  },
};

/**
 * @module registry/migrations/002-tool-catalog
 * The last known tool names per server spec (see `registry/registry-catalog-store`), so a gateway that
 * restarts decides names as before even when a server fails to start.
 */

import type { Kysely, Migration } from 'kysely';

/** Creates `tool_catalog`. */
export const toolCatalogMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('tool_catalog')
      .addColumn('spec_hash', 'text', (column) => column.primaryKey())
      .addColumn('tools', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('tool_catalog').ifExists().execute();
  },
};

/**
 * @module registry/migrations/007-user-tool-search
 * Each user's tool-search setting for the gateway (`users.tool_search`: JSON `ToolSearchSettings`, or
 * null for the default): whether clients on `/mcp` see `search_tools` and `call_tool` instead of every
 * definition.
 */

import type { Kysely, Migration } from 'kysely';

/** Adds `users.tool_search`. */
export const userToolSearchMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('users').addColumn('tool_search', 'text').execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('users').dropColumn('tool_search').execute();
  },
};

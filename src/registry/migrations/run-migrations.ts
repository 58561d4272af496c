/**
 * @module registry/migrations/run-migrations
 * Versioned migrations, run on every open. Kysely's migrator keeps the applied versions in
 * `switchboard_migration` and takes a lock (an advisory lock on PostgreSQL), so replicas starting
 * together migrate once. Add a migration by appending to {@link MIGRATIONS}; never edit a released one.
 */

import { Migrator, type Kysely, type Migration } from 'kysely';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import { initialMigration } from './001-initial.js';
import { toolCatalogMigration } from './002-tool-catalog.js';
import { oauthServerMigration } from './003-oauth-server.js';
import { endpointsMigration } from './004-endpoints.js';
import { clusterMigration } from './006-cluster.js';
import { userToolSearchMigration } from './007-user-tool-search.js';
import { replicaStatsMigration } from './009-replica-stats.js';
import { clusterLimitsMigration } from './008-cluster-limits.js';
import { auditIndexesMigration } from './010-audit-indexes.js';

/** Every migration, by version. Names sort in the order they apply. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '001-initial': initialMigration,
  '002-tool-catalog': toolCatalogMigration,
  '003-oauth-server': oauthServerMigration,
  '004-endpoints': endpointsMigration,
  '006-cluster': clusterMigration,
  '007-user-tool-search': userToolSearchMigration,
  '009-replica-stats': replicaStatsMigration,
  '008-cluster-limits': clusterLimitsMigration,
  '010-audit-indexes': auditIndexesMigration,
};

/** Brings the schema to the latest version; returns the versions applied now. */
export async function runMigrations(db: Kysely<unknown>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => ({ ...MIGRATIONS }) },
    migrationTableName: 'switchboard_migration',
    migrationLockTableName: 'switchboard_migration_lock',
    // Numbers were handed out per feature (005, 006 came after 007): a database at 007 still gets them.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    throw new SwitchboardError(
      ErrorCode.DatabaseError,
      `cannot migrate the registry database${failed === undefined ? '' : ` (migration ${failed})`}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error, hint: 'a database written by a newer mcp-switchboard cannot be opened by an older one' },
    );
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

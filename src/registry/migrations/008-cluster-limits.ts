/**
 * @module registry/migrations/008-cluster-limits
 * Per-user call limits and 2025-era session state across a gateway cluster (issue 20):
 * - `call_leases` (unlogged on PostgreSQL): one row per call running under a user's `maxConcurrentCalls` on some replica
 *   (which renews `expires_ms` while the call runs). On PostgreSQL two functions take and give
 *   back a lease in one round trip each: the take holds a per-user advisory lock
 *   (`pg_advisory_xact_lock`) while it counts the leases of live replicas and inserts its own, so
 *   two replicas never both take the last place. SQLite (one replica) has the table but no
 *   functions: its limit stays in process.
 * - `session_states`: what a 2025-era session set that its sealed id cannot carry (its log level,
 *   its resource subscriptions), by the SHA-256 of the session id.
 */

import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * Takes a lease when fewer than `p_limit` unexpired leases of live replicas (seen since
 * `p_fresh`) exist for the user; answers how many there were (taken when that is below the limit).
 * VOLATILE: each statement sees what committed before it, so the count after the lock sees every
 * lease taken under it.
 */
const TAKE_FUNCTION = `
create or replace function switchboard_take_call_lease(p_id text, p_user text, p_replica text, p_limit integer, p_now_ms bigint, p_expires_ms bigint, p_fresh text)
returns integer language plpgsql volatile as $$
declare
  held integer;
begin
  perform pg_advisory_xact_lock(hashtextextended('switchboard_call_leases:' || p_user, 0));
  select count(*) into held from call_leases l join replicas r on r.id = l.replica_id
    where l.user_id = p_user and l.expires_ms > p_now_ms and r.last_seen >= p_fresh;
  if held < p_limit then
    insert into call_leases (id, user_id, replica_id, expires_ms) values (p_id, p_user, p_replica, p_expires_ms);
  end if;
  return held;
end $$`;

/**
 * Gives a lease back; when the user's leases were at `p_limit` (someone may be waiting), tells
 * every replica on channel `switchboard_call_leases` (payload: the user id).
 */
const RELEASE_FUNCTION = `
create or replace function switchboard_release_call_lease(p_id text, p_limit integer, p_now_ms bigint)
returns void language plpgsql volatile as $$
declare
  owner text;
  held integer;
begin
  delete from call_leases where id = p_id returning user_id into owner;
  if owner is null then
    return;
  end if;
  select count(*) into held from call_leases where user_id = owner and expires_ms > p_now_ms;
  if held + 1 >= p_limit then
    perform pg_notify('switchboard_call_leases', owner);
  end if;
end $$`;

/** Creates `call_leases`, `session_states` and, on PostgreSQL, the lease functions. */
export const clusterLimitsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    // Unlogged on PostgreSQL: a lease lives seconds, so it skips the WAL and a take commits without
    // waiting for a disk flush; after a database crash the table is empty, as the calls' leases
    // would have lapsed anyway.
    const leases = db.schema.createTable('call_leases');
    await (postgres ? leases.modifyFront(sql`unlogged`) : leases)
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('replica_id', 'text', (column) => column.notNull())
      .addColumn('expires_ms', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('call_leases_user').on('call_leases').column('user_id').execute();
    await db.schema.createIndex('call_leases_replica').on('call_leases').column('replica_id').execute();
    await db.schema
      .createTable('session_states')
      .addColumn('digest', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('state', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('session_states_updated_at').on('session_states').column('updated_at').execute();
    if (postgres) {
      await sql.raw(TAKE_FUNCTION).execute(db);
      await sql.raw(RELEASE_FUNCTION).execute(db);
    }
  },
  async down(db: Kysely<unknown>): Promise<void> {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql.raw('drop function if exists switchboard_take_call_lease(text, text, text, integer, bigint, bigint, text)').execute(db);
      await sql.raw('drop function if exists switchboard_release_call_lease(text, integer, bigint)').execute(db);
    }
    await db.schema.dropTable('session_states').execute();
    await db.schema.dropTable('call_leases').execute();
  },
};

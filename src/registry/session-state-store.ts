/**
 * @module registry/session-state-store
 * What a 2025-era session sets after `initialize` and its sealed id cannot carry (the id never
 * changes): its log level and its resource subscriptions, one small row per session by the SHA-256
 * of its id (migration 008). Written when the client sets them (and announced on PostgreSQL, so a
 * replica already holding the session applies them too), read once by a replica that resumes the
 * session, deleted when the session ends. Nothing on the per-call path.
 */

import { sql } from 'kysely';
import { ErrorCode, SwitchboardError } from '../errors.js';
import type { RegistryContext } from './registry-context.js';
import { parseStoredJson, timestamp } from './registry-context.js';

/** The channel a changed session state is announced on (payload: the SHA-256 of the session id). */
export const SESSION_STATE_CHANNEL = 'switchboard_session_state';

/** A session's carried state. */
export interface StoredSessionState {
  /** The MCP log level the client set, if any. */
  logLevel?: string;
  /** Subscribed resources: the URI the client knows, the server that owns it, the server's URI. */
  subscriptions: Array<[exposed: string, server: string, uri: string]>;
}

/** Session states in the registry database. */
export class SessionStateStore {
  readonly #context: RegistryContext;

  constructor(context: RegistryContext) {
    this.#context = context;
  }

  /** Stores the state of the session with id digest `digest` (and tells the other replicas, on PostgreSQL). */
  async save(digest: string, userId: string, state: StoredSessionState, now: Date = this.#context.clock.date()): Promise<void> {
    const values = { digest, user_id: userId, state: JSON.stringify(state), updated_at: timestamp(now) };
    if (this.#context.backend !== 'postgres') {
      await this.#context.db
        .insertInto('session_states')
        .values(values)
        .onConflict((conflict) => conflict.column('digest').doUpdateSet({ state: values.state, updated_at: values.updated_at }))
        .execute();
      return;
    }
    // One round trip: the upsert and its announcement commit together.
    await sql`with saved as (
        insert into session_states (digest, user_id, state, updated_at) values (${values.digest}, ${values.user_id}, ${values.state}, ${values.updated_at})
        on conflict (digest) do update set state = excluded.state, updated_at = excluded.updated_at
        returning digest)
      select pg_notify(${SESSION_STATE_CHANNEL}, digest) from saved`.execute(this.#context.db);
  }

  /** The stored state of a session of `userId`, or undefined. */
  async load(digest: string, userId: string): Promise<StoredSessionState | undefined> {
    const row = await this.#context.db.selectFrom('session_states').select(['state', 'user_id']).where('digest', '=', digest).executeTakeFirst();
    if (row === undefined || row.user_id !== userId) return undefined;
    return parseState(parseStoredJson(row.state, 'session state'));
  }

  /** Forgets the state of an ended session. */
  async remove(digest: string): Promise<void> {
    await this.#context.db.deleteFrom('session_states').where('digest', '=', digest).execute();
  }

  /** Forgets states not written since `before` (their session ids have expired by then). */
  async forgetBefore(before: Date): Promise<number> {
    const result = await this.#context.db.deleteFrom('session_states').where('updated_at', '<', timestamp(before)).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

function parseState(value: unknown): StoredSessionState {
  if (typeof value !== 'object' || value === null) throw new SwitchboardError(ErrorCode.DatabaseError, 'a stored session state is not an object');
  const { logLevel, subscriptions } = value as { logLevel?: unknown; subscriptions?: unknown };
  const rows = Array.isArray(subscriptions) ? subscriptions : [];
  return {
    ...(typeof logLevel === 'string' ? { logLevel } : {}),
    subscriptions: rows.filter((row): row is [string, string, string] => Array.isArray(row) && row.length === 3 && row.every((item) => typeof item === 'string')),
  };
}

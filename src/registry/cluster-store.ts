/**
 * @module registry/cluster-store
 * What the replicas of a gateway cluster share in the database: a heartbeat row per replica (it is in
 * the cluster while its row is fresh) and the 2025-era sessions a client ended with `DELETE` (any
 * replica may resume a session from its sealed id, so an ended one must be refused everywhere, also
 * by a replica that starts later). No work on the per-call path: the heartbeat runs on a timer, an
 * ended session is looked up only when a replica resumes a session it does not hold.
 */

import type { RegistryContext } from './registry-context.js';
import { timestamp } from './registry-context.js';

/** One replica as the database sees it. */
export interface ReplicaRecord {
  id: string;
  url: string | undefined;
  startedAt: string;
  lastSeen: string;
}

/** The cluster's shared rows. */
export class ClusterStore {
  readonly #context: RegistryContext;
  readonly #publishEnded: (digest: string) => Promise<void>;

  constructor(context: RegistryContext, publishEnded: (digest: string) => Promise<void>) {
    this.#context = context;
    this.#publishEnded = publishEnded;
  }

  /**
   * Records that replica `id` is alive now (inserted on its first beat), on the database's clock,
   * which each beat measures again: every time the replicas compare is the database's. `at`: a beat
   * recorded as made then (a test's long-gone replica).
   */
  async heartbeat(replica: { id: string; url: string | undefined; startedAt: string }, at?: Date): Promise<void> {
    const clock = this.#context.clock;
    const before = clock.offsetMs;
    if (at === undefined && (await clock.sync())) this.#context.logger.info("this replica's clock differs from the database's; cluster times follow the database", { replica: replica.id, offsetMs: clock.offsetMs, previousOffsetMs: before });
    const seen = timestamp(at ?? clock.date());
    await this.#context.db
      .insertInto('replicas')
      .values({ id: replica.id, url: replica.url ?? null, started_at: replica.startedAt, last_seen: seen })
      .onConflict((conflict) => conflict.column('id').doUpdateSet({ last_seen: seen }))
      .execute();
  }

  /** Replicas seen within `freshMs` of `now`, oldest first; rows older than `forgetMs` are deleted. */
  async replicas(freshMs: number, forgetMs: number, now: Date = this.#context.clock.date()): Promise<ReplicaRecord[]> {
    await this.#context.db.deleteFrom('replicas').where('last_seen', '<', timestamp(new Date(now.getTime() - forgetMs))).execute();
    const rows = await this.#context.db
      .selectFrom('replicas')
      .selectAll()
      .where('last_seen', '>=', timestamp(new Date(now.getTime() - freshMs)))
      .orderBy('started_at')
      .execute();
    return rows.map((row) => ({ id: row.id, url: row.url ?? undefined, startedAt: row.started_at, lastSeen: row.last_seen }));
  }

  /** How many replicas were seen within `freshMs` of `now` (one cheap count per heartbeat). */
  async liveCount(freshMs: number, now: Date = this.#context.clock.date()): Promise<number> {
    const row = await this.#context.db
      .selectFrom('replicas')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('last_seen', '>=', timestamp(new Date(now.getTime() - freshMs)))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Now on the database's clock (ms): what every time shared between replicas is written and judged by. */
  now(): number {
    return this.#context.clock.now();
  }

  /** Removes replica `id` (at its shutdown). */
  async leave(id: string): Promise<void> {
    await this.#context.db.deleteFrom('replicas').where('id', '=', id).execute();
  }

  /** Remembers that the session with this id digest ended, and tells the other replicas. */
  async endSession(digest: string, userId: string, now: Date = this.#context.clock.date()): Promise<void> {
    await this.#context.db
      .insertInto('ended_sessions')
      .values({ digest, user_id: userId, ended_at: timestamp(now) })
      .onConflict((conflict) => conflict.column('digest').doNothing())
      .execute();
    await this.#publishEnded(digest);
  }

  /** The digests among `digests` of sessions that ended. */
  async endedAmong(digests: readonly string[]): Promise<Set<string>> {
    if (digests.length === 0) return new Set();
    const rows = await this.#context.db.selectFrom('ended_sessions').select('digest').where('digest', 'in', [...digests]).execute();
    return new Set(rows.map((row) => row.digest));
  }

  /** Forgets sessions ended before `before`, and session states last written before it (their ids have expired by then). */
  async forgetEndedBefore(before: Date): Promise<number> {
    const result = await this.#context.db.deleteFrom('ended_sessions').where('ended_at', '<', timestamp(before)).executeTakeFirst();
    await this.#context.db.deleteFrom('session_states').where('updated_at', '<', timestamp(before)).execute();
    return Number(result.numDeletedRows);
  }
}


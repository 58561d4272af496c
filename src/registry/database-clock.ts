/**
 * @module registry/database-clock
 * The time the replicas of a cluster agree on: the database's. Leases, heartbeats and shared rate
 * buckets compare times written by different machines; with each replica's own clock, a replica
 * 10 s ahead took every other replica's leases for expired and ignored the users' limits, and one
 * 10 s behind looked dead. Each replica reads the database's clock now and then ({@link sync}, with
 * its heartbeat) and keeps the difference, so reading the time stays a sum on the call path.
 * On SQLite (one replica, one machine) the database's clock is the process's own: no difference.
 */

import { sql, type Kysely } from 'kysely';
import type { RegistryDatabase } from './database-schema.js';
import type { RegistryBackend } from './open-database.js';

/** Differences smaller than this are a round trip's noise, not a clock apart: not worth a log line. */
const NOTEWORTHY_OFFSET_MS = 1_000;

/** Now as the database sees it, from the process's clock and the last measured difference. */
export class DatabaseClock {
  readonly #db: Kysely<RegistryDatabase>;
  readonly #backend: RegistryBackend;
  readonly #localNow: () => number;
  #offsetMs = 0;

  /** `localNow`: this process's clock, read at each use (so a clock set apart later is seen). */
  constructor(db: Kysely<RegistryDatabase>, backend: RegistryBackend, localNow: () => number = () => Date.now()) {
    this.#db = db;
    this.#backend = backend;
    this.#localNow = localNow;
  }

  /** Milliseconds since the epoch, on the database's clock. */
  now(): number {
    return this.#localNow() + this.#offsetMs;
  }

  /** {@link now} as a `Date`. */
  date(): Date {
    return new Date(this.now());
  }

  /** How far the database's clock is ahead of this process's (negative: behind), as last measured. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /**
   * Measures the difference again (PostgreSQL: one query; the database's reading is taken as made
   * halfway through the round trip). Returns true when it moved by a second or more since the last
   * time, which the caller may log.
   */
  async sync(): Promise<boolean> {
    if (this.#backend !== 'postgres') return false;
    const sent = this.#localNow();
    const result = await sql<{ ms: number | string }>`select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms`.execute(this.#db);
    const received = this.#localNow();
    const databaseMs = Number(result.rows[0]?.ms);
    if (!Number.isFinite(databaseMs)) return false;
    const offset = Math.round(databaseMs - (sent + received) / 2);
    const moved = Math.abs(offset - this.#offsetMs) >= NOTEWORTHY_OFFSET_MS;
    this.#offsetMs = offset;
    return moved;
  }
}

/**
 * @module registry/sqlite-audit-insert
 * The audit batch insert on SQLite, as one prepared statement run per entry inside one transaction.
 * Through Kysely a 200-entry batch built a query tree of 2,600 parameters, compiled it to SQL and had
 * better-sqlite3 prepare it anew each flush: ~26 µs of CPU per entry, which the gateway pays once
 * per tool call (bench/README.md, issue 17). Prepared once and run in a transaction: ~10 µs, nearly
 * all of it SQLite's own insert. Same columns and the same "skip an id already stored" rule as
 * {@link AuditStore.recordMany}'s Kysely insert (used for PostgreSQL), which a test holds equal.
 */

import type BetterSqlite3 from 'better-sqlite3';
import type { AuditRecord } from './audit-store.js';
import { newId } from './new-id.js';
import { timestamp } from './registry-context.js';

const INSERT = `insert into audit_log (id, user_id, user_name, server, tool, ok, error_code, duration_ms, arguments, created_at, endpoint, decision, rule)
  values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (id) do nothing`;

/** Writes audit batches to one SQLite database. */
export class SqliteAuditInsert {
  readonly #insertAll: (entries: readonly AuditRecord[]) => void;

  constructor(sqlite: BetterSqlite3.Database) {
    // Prepared on first use: the table exists only once the migrations ran.
    let statement: BetterSqlite3.Statement | undefined;
    this.#insertAll = sqlite.transaction((entries: readonly AuditRecord[]) => {
      statement ??= sqlite.prepare(INSERT);
      for (const entry of entries) {
        statement.run(
          entry.id ?? newId(),
          entry.userId ?? null,
          entry.userName ?? null,
          entry.server ?? null,
          entry.tool ?? null,
          entry.ok ? 1 : 0,
          entry.errorCode ?? null,
          Math.round(entry.durationMs),
          entry.arguments === undefined ? null : JSON.stringify(entry.arguments),
          entry.createdAt ?? timestamp(),
          entry.endpoint ?? null,
          entry.decision ?? null,
          entry.rule ?? null,
        );
      }
    });
  }

  /** Inserts `entries` in one transaction (all or none). */
  insert(entries: readonly AuditRecord[]): void {
    this.#insertAll(entries);
  }
}

/**
 * @module registry/open-database
 * A database target (`postgres://…` URL or SQLite file path) to a Kysely instance. Drivers are
 * imported lazily, so code that never opens a registry never loads them.
 */

import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { ErrorCode, SwitchboardError } from '../errors.js';
import type { RegistryDatabase } from './database-schema.js';

/** Where the embedded database lives when nothing else is said. */
export const DEFAULT_DATABASE_PATH = './.switchboard/switchboard.db';
/** How long SQLite waits for another process's write lock. @default 5000 */
export const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/** Which backend a target names. */
export type RegistryBackend = 'sqlite' | 'postgres';

/** An open database. */
export interface OpenedDatabase {
  db: Kysely<RegistryDatabase>;
  backend: RegistryBackend;
  /** The SQLite file (absolute), for SQLite. */
  file?: string;
  /** The PostgreSQL connection string, for PostgreSQL (keep it out of logs: use `label`). */
  connectionString?: string;
  /** The target without credentials, for messages. */
  label: string;
  /** The SQLite connection under `db`, for SQLite: the audit insert prepares its statement on it once. */
  sqlite?: BetterSqlite3.Database;
}

/** True when `target` is a PostgreSQL URL. */
export function isPostgresUrl(target: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(target);
}

/** `target` with any password replaced, safe to print. */
export function describeDatabase(target: string): string {
  if (!isPostgresUrl(target)) return target;
  try {
    const url = new URL(target);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    return 'postgres://(unparseable URL)';
  }
}

/**
 * Opens `target`: a `postgres://` URL, or a path to an SQLite file (created with its folder on first
 * use, readable by the owner only). `baseDir` resolves a relative path.
 */
export async function openDatabase(target: string, baseDir: string = process.cwd()): Promise<OpenedDatabase> {
  const { Kysely, PostgresDialect, SqliteDialect } = await import('kysely');
  if (isPostgresUrl(target)) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: target, max: 10, connectionTimeoutMillis: 10_000 });
    // An idle client losing its connection emits on the pool; without a listener that would crash the process.
    pool.on('error', () => {});
    // A client in use when its connection breaks emits `error` too (its query fails with it as well):
    // the pool listens only to idle ones, so each client gets a listener of its own for its whole life.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<RegistryDatabase>({ dialect: new PostgresDialect({ pool }) });
    const label = describeDatabase(target);
    try {
      const client = await pool.connect();
      client.release();
    } catch (error) {
      await db.destroy().catch(() => {});
      throw databaseError(`cannot connect to ${label}`, error, 'is PostgreSQL running, and does the database exist?');
    }
    return { db, backend: 'postgres', connectionString: target, label };
  }

  const file = resolve(baseDir, target);
  const { default: Database } = await import('better-sqlite3');
  let sqlite: InstanceType<typeof Database>;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const isNew = !existsSync(file);
    sqlite = new Database(file, { timeout: SQLITE_BUSY_TIMEOUT_MS });
    if (isNew) chmodSync(file, 0o600);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('synchronous = NORMAL');
  } catch (error) {
    throw databaseError(`cannot open the SQLite database ${file}`, error, 'check the path and its permissions');
  }
  const db = new Kysely<RegistryDatabase>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, backend: 'sqlite', file, label: file, sqlite };
}

/** A DATABASE_ERROR with the driver's message (drivers do not put credentials in messages). */
export function databaseError(message: string, cause: unknown, hint?: string): SwitchboardError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : undefined;
  return new SwitchboardError(ErrorCode.DatabaseError, `${message}: ${detail}${code === undefined || detail.includes(code) ? '' : ` (${code})`}`, {
    cause,
    ...(hint === undefined ? {} : { hint }),
  });
}

/** True for a unique-constraint violation on either backend. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = String(error.code);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

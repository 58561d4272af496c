/**
 * Both registry backends for a test file: an SQLite file in a temporary folder, and a throwaway
 * PostgreSQL database (`sb_test_<random>`) on the server at SWITCHBOARD_TEST_POSTGRES (default
 * postgres://postgres@127.0.0.1:5432/postgres, trust auth), dropped afterwards. Without a reachable
 * server the PostgreSQL suites are skipped with the reason — except on CI, where they must run.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const POSTGRES_ADMIN_URL = process.env.SWITCHBOARD_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type BackendKind = 'sqlite' | 'postgres';

/** A fresh, empty database of one backend. */
export interface TestDatabase {
  kind: BackendKind;
  /** What `--db` / `ServerRegistry.open({ db })` takes. */
  db: string;
  /** A temporary folder for key files and the SQLite file. */
  dir: string;
  /** The SQLite file (sqlite only). */
  file?: string;
  /** Empties it (tables, key files) for the next test; the registry must be closed. */
  reset(): Promise<void>;
  drop(): Promise<void>;
}

const TABLES = ['oauth_records', 'oauth_keys', 'rate_buckets', 'group_members', 'user_groups', 'tool_rules', 'rate_limits', 'endpoints', 'tool_catalog', 'audit_log', 'api_tokens', 'user_secrets', 'servers', 'server_templates', 'users', 'settings'];

function clearFolder(dir: string): void {
  for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true, force: true });
}

let probe: Promise<string | undefined> | undefined;

/** Undefined when PostgreSQL answers; otherwise why not. */
export function postgresUnavailableReason(): Promise<string | undefined> {
  probe ??= (async () => {
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3_000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('select 1');
      return undefined;
    } catch (error) {
      return `cannot reach PostgreSQL at ${POSTGRES_ADMIN_URL} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); start it or set SWITCHBOARD_TEST_POSTGRES`;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return probe;
}

/** The backends to run, with the reason PostgreSQL is skipped (never skipped on CI). */
export async function backendsToTest(): Promise<Array<{ kind: BackendKind; skip: string | undefined }>> {
  const reason = await postgresUnavailableReason();
  if (reason !== undefined) {
    process.stderr.write(
      process.env.CI === 'true'
        ? `\n[registry tests] PostgreSQL is required on CI and is not reachable: ${reason}\n`
        : `\n[registry tests] PostgreSQL suites SKIPPED: ${reason}\n`,
    );
  }
  return [
    { kind: 'sqlite', skip: undefined },
    { kind: 'postgres', skip: process.env.CI === 'true' ? undefined : reason },
  ];
}

/** Creates an empty database of `kind`. */
export async function createTestDatabase(kind: BackendKind): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-registry-'));
  if (kind === 'sqlite') {
    const file = join(dir, 'switchboard.db');
    return { kind, db: file, dir, file, reset: async () => clearFolder(dir), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `sb_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  // Durability is not under test: without a WAL flush per commit the suites run several times faster.
  await adminQuery(`alter database ${name} set synchronous_commit = off`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    kind,
    db: url.toString(),
    dir,
    reset: async () => {
      clearFolder(dir);
      const tables = await queryPostgres(url.toString(), "select tablename from pg_tables where schemaname = 'public'");
      const present = TABLES.filter((table) => tables.some((row) => row.tablename === table));
      // DELETE is much faster than TRUNCATE on tables this small.
      if (present.length > 0) await queryPostgres(url.toString(), present.map((table) => `delete from ${table};`).join(' '));
    },
    drop: async () => {
      rmSync(dir, { recursive: true, force: true });
      await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Runs one query on a test database (to look at what is really stored). */
export async function queryPostgres(url: string, text: string, values: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as Array<Record<string, unknown>>;
  } finally {
    await client.end();
  }
}

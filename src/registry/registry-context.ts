/**
 * @module registry/registry-context
 * What the stores of one registry share: the database, the secret box, change notification and
 * small helpers. Internal: not exported from the package.
 */

import type { Kysely } from 'kysely';
import { ErrorCode, SwitchboardError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { RegistryDatabase } from './database-schema.js';
import type { RegistryBackend } from './open-database.js';
import type { HostResolver } from './resolve-host.js';
import type { RegistryChange, RegistryUser, UserRef } from './registry-types.js';
import type { SecretBox } from './secret-box.js';
import type { DatabaseClock } from './database-clock.js';
import type { SqliteAuditInsert } from './sqlite-audit-insert.js';
import { parsePolicy, type TenantPolicy } from './tenant-policy.js';
import { parseStoredToolSearch } from './stored-tool-search.js';

/** Internal services of one registry. */
export interface RegistryContext {
  db: Kysely<RegistryDatabase>;
  backend: RegistryBackend;
  /** The database's clock (what replicas compare shared times by). */
  clock: DatabaseClock;
  /** The audit batch insert on SQLite's own connection (absent on PostgreSQL, which goes through `db`). */
  sqliteAudit?: SqliteAuditInsert;
  box: SecretBox;
  logger: Logger;
  resolveHost: HostResolver;
  /** Variables `${VAR}` in admin-defined entries expand from. */
  env: Readonly<Record<string, string | undefined>>;
  baseDir: string;
  /** Announces a committed change (locally, and to other processes on PostgreSQL). */
  notify(change: Omit<RegistryChange, 'remote'>): Promise<void>;
  /** The global tenant policy (as stored; defaults not applied). */
  globalPolicy(): Promise<Partial<TenantPolicy>>;
}

/** Now, as stored: ISO 8601 UTC with milliseconds. */
export function timestamp(date: Date = new Date()): string {
  return date.toISOString();
}

/** Parses JSON written by the registry itself. */
export function parseStoredJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SwitchboardError(ErrorCode.DatabaseError, `stored ${what} is not valid JSON`, { cause: error });
  }
}

/** Names of users, servers and templates: what a tool-name prefix can carry. */
export const RECORD_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** User names may also look like e-mail addresses. */
export const USER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.@+-]{0,127}$/;

/** Throws INVALID_ARGUMENT unless `name` matches `pattern`. */
export function checkName(name: string, pattern: RegExp, what: string): void {
  if (!pattern.test(name)) {
    throw new SwitchboardError(ErrorCode.InvalidArgument, `${what} name "${name.slice(0, 80)}" is not valid`, {
      hint: pattern === USER_NAME ? 'use letters, digits and _ . @ + - (up to 128)' : 'use letters, digits, _ and - (up to 64), starting with a letter or digit',
    });
  }
}

/** A users row → the public record. */
export function toUser(row: RegistryDatabase['users']): RegistryUser {
  return {
    id: row.id,
    name: row.name,
    isAdmin: row.is_admin === 1,
    ...(row.policy === null ? {} : { policy: parsePolicy(parseStoredJson(row.policy, 'user policy'), `users.${row.name}.policy`) }),
    ...(row.tool_search === null || row.tool_search === undefined ? {} : { toolSearch: parseStoredToolSearch(row.tool_search, row.name) }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Finds a user by name or `{ id }`; throws NOT_FOUND. */
export async function requireUser(context: Pick<RegistryContext, 'db'>, ref: UserRef, db: Kysely<RegistryDatabase> = context.db): Promise<RegistryUser> {
  const query = db.selectFrom('users').selectAll();
  const row = await (typeof ref === 'string' ? query.where('name', '=', ref) : query.where('id', '=', ref.id)).executeTakeFirst();
  if (row === undefined) {
    throw new SwitchboardError(ErrorCode.NotFound, `there is no user ${typeof ref === 'string' ? `"${ref}"` : `with id ${ref.id}`}`, {
      hint: 'list users with `switchboard users list`',
    });
  }
  return toUser(row);
}

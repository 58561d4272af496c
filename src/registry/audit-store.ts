/**
 * @module registry/audit-store
 * The audit trail of tool calls: who, which server and tool, the outcome and how long it took.
 * Arguments are kept only when asked for (they may hold personal data).
 */

import { ErrorCode, SwitchboardError } from '../errors.js';
import type { RegistryDatabase } from './database-schema.js';
import { newId } from './new-id.js';
import { parseStoredJson, requireUser, timestamp, type RegistryContext } from './registry-context.js';
import type { AuditEntry, UserRef } from './registry-types.js';

/** What {@link AuditStore.record} takes. */
export type AuditRecord = Omit<AuditEntry, 'id' | 'createdAt'> & { id?: string; createdAt?: string };

/** Most rows one listing returns. @default 1000 */
export const MAX_AUDIT_PAGE = 1_000;

/** The audit log of a registry. */
export class AuditStore {
  readonly #context: RegistryContext;

  constructor(context: RegistryContext) {
    this.#context = context;
  }

  /** Appends one entry. */
  async record(entry: AuditRecord): Promise<void> {
    await this.recordMany([entry]);
  }

  /**
   * Appends entries in one statement (see {@link AuditWriter}, which batches the pool's calls). An
   * entry whose id is already stored is skipped, so a batch sent again after a lost answer is not doubled.
   */
  async recordMany(entries: readonly AuditRecord[]): Promise<void> {
    if (entries.length === 0) return;
    const sqlite = this.#context.sqliteAudit;
    if (sqlite !== undefined) return sqlite.insert(entries);
    await this.#context.db
      .insertInto('audit_log')
      .values(
        entries.map((entry) => ({
          id: entry.id ?? newId(),
          user_id: entry.userId ?? null,
          user_name: entry.userName ?? null,
          server: entry.server ?? null,
          tool: entry.tool ?? null,
          ok: entry.ok ? 1 : 0,
          error_code: entry.errorCode ?? null,
          duration_ms: Math.round(entry.durationMs),
          arguments: entry.arguments === undefined ? null : JSON.stringify(entry.arguments),
          created_at: entry.createdAt ?? timestamp(),
          endpoint: entry.endpoint ?? null,
          decision: entry.decision ?? null,
          rule: entry.rule ?? null,
        })),
      )
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
  }

  /** The newest entries first, of one user or of everyone. */
  async list(options: { user?: UserRef; limit?: number } = {}): Promise<AuditEntry[]> {
    const limit = options.limit ?? 100;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_AUDIT_PAGE) {
      throw new SwitchboardError(ErrorCode.InvalidArgument, `limit must be an integer from 1 to ${MAX_AUDIT_PAGE}`);
    }
    let query = this.#context.db.selectFrom('audit_log').selectAll();
    if (options.user !== undefined) {
      const user = await requireUser(this.#context, options.user);
      query = query.where('user_id', '=', user.id);
    }
    const rows = await query.orderBy('id', 'desc').limit(limit).execute();
    return rows.map(toEntry);
  }
}

function toEntry(row: RegistryDatabase['audit_log']): AuditEntry {
  return {
    id: row.id,
    ...(row.user_id === null ? {} : { userId: row.user_id }),
    ...(row.user_name === null ? {} : { userName: row.user_name }),
    ...(row.server === null ? {} : { server: row.server }),
    ...(row.tool === null ? {} : { tool: row.tool }),
    ok: row.ok === 1,
    ...(row.error_code === null ? {} : { errorCode: row.error_code }),
    durationMs: Number(row.duration_ms),
    ...(row.arguments === null ? {} : { arguments: parseStoredJson(row.arguments, 'audit arguments') }),
    createdAt: row.created_at,
    ...(row.endpoint == null ? {} : { endpoint: row.endpoint }),
    ...(row.decision == null ? {} : { decision: row.decision }),
    ...(row.rule == null ? {} : { rule: row.rule }),
  };
}

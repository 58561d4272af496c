/**
 * @module registry/audit-writer
 * Audit entries of tool calls, written in batches: one multi-row insert per interval instead of a
 * transaction per call, so auditing stays off the per-call path (one insert per call cost about as
 * much as the call itself on SQLite). Entries get their id and time when the call ends, so order is
 * kept; `close()` writes what is left.
 *
 * When the database cannot be reached (a restart, dropped connections), the batch is kept and sent
 * again with backoff ({@link DEFAULT_AUDIT_RETRY_MS} doubling up to {@link DEFAULT_AUDIT_MAX_RETRY_MS})
 * until it is written; the insert ignores ids already stored, so a batch whose commit succeeded but
 * whose answer was lost is not written twice. Entries wait in a bounded buffer
 * ({@link DEFAULT_AUDIT_MAX_BUFFERED}): when it is full, **new entries are dropped** (the oldest are
 * kept, so the trail up to the outage stays whole) and counted, as are failed writes — see
 * {@link AuditWriter.stats}, exposed on the gateway's `/metrics`. A batch the database refuses
 * outright (bad data: retrying cannot help) is dropped and counted, so it cannot block the others.
 */

import { noopLogger, type Logger } from '../logger.js';
import { backoffDelay } from '../util/backoff.js';
import type { AuditRecord, AuditStore } from './audit-store.js';
import { isRejectedStatement } from './is-rejected-statement.js';
import { newId } from './new-id.js';
import { timestamp } from './registry-context.js';

/** Longest an entry waits before it is written. @default 200 */
export const DEFAULT_AUDIT_FLUSH_MS = 200;
/** Entries that trigger a write at once, and most entries per insert. @default 200 */
export const DEFAULT_AUDIT_BATCH_SIZE = 200;
/** Most entries waiting to be written; past it new entries are dropped (counted). @default 10000 */
export const DEFAULT_AUDIT_MAX_BUFFERED = 10_000;
/** First wait before writing again after a failed write; doubles per failure. @default 100 */
export const DEFAULT_AUDIT_RETRY_MS = 100;
/** Longest wait between attempts while the database is away. @default 5000 */
export const DEFAULT_AUDIT_MAX_RETRY_MS = 5_000;
/** How long `close()` keeps trying to write what is left before dropping it (counted). @default 5000 */
export const DEFAULT_AUDIT_CLOSE_TIMEOUT_MS = 5_000;

/** Options of an {@link AuditWriter}. */
export interface AuditWriterOptions {
  /** @default DEFAULT_AUDIT_FLUSH_MS */
  flushIntervalMs?: number;
  /** @default DEFAULT_AUDIT_BATCH_SIZE */
  batchSize?: number;
  /** @default DEFAULT_AUDIT_MAX_BUFFERED */
  maxBuffered?: number;
  /** @default DEFAULT_AUDIT_RETRY_MS */
  retryDelayMs?: number;
  /** @default DEFAULT_AUDIT_MAX_RETRY_MS */
  maxRetryDelayMs?: number;
  /** @default DEFAULT_AUDIT_CLOSE_TIMEOUT_MS */
  closeTimeoutMs?: number;
  logger?: Logger;
}

/** Why entries were dropped: the buffer was full, the database refused them, or the writer closed with them unwritten. */
export type AuditDropReason = 'full' | 'rejected' | 'closed';

/** Counters of an {@link AuditWriter}, since it was created. */
export interface AuditWriterStats {
  /** Entries stored. */
  written: number;
  /** Entries waiting now (including a batch being written). */
  buffered: number;
  /** Inserts that failed (each retry counts). */
  writeFailures: number;
  /** Entries that will never be stored, by reason. */
  dropped: Record<AuditDropReason, number>;
}

let stampMs = -1;
let stamp = '';
/** `timestamp()` of now, formatted once per millisecond (several calls end in the same one under load). */
function stampNow(): string {
  const now = Date.now();
  if (now !== stampMs) {
    stampMs = now;
    stamp = timestamp(new Date(now));
  }
  return stamp;
}

/**
 * `entry` with its id and time, as an object of one fixed shape: a spread with optional fields made a
 * new hidden class per combination and cost ~2 µs per call on the gateway's path (issue 17).
 */
function stamped(entry: AuditRecord): AuditRecord {
  return {
    id: entry.id ?? newId(),
    userId: entry.userId,
    userName: entry.userName,
    server: entry.server,
    tool: entry.tool,
    ok: entry.ok,
    errorCode: entry.errorCode,
    durationMs: entry.durationMs,
    arguments: entry.arguments,
    createdAt: entry.createdAt ?? stampNow(),
    endpoint: entry.endpoint,
    decision: entry.decision,
    rule: entry.rule,
  };
}

/** Buffers audit entries and writes them in batches, retrying while the database is away. */
export class AuditWriter {
  readonly #store: AuditStore;
  readonly #logger: Logger;
  readonly #batchSize: number;
  readonly #maxBuffered: number;
  readonly #options: AuditWriterOptions;
  /** Oldest first; the front `batchSize` entries are the batch being written. */
  #buffer: AuditRecord[] = [];
  #timer: NodeJS.Timeout | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #failedAttempts = 0;
  #writing: Promise<void> = Promise.resolve();
  #closed = false;
  #closing: Promise<void> | undefined;
  #written = 0;
  #writeFailures = 0;
  readonly #dropped: Record<AuditDropReason, number> = { full: 0, rejected: 0, closed: 0 };
  /** Entries dropped as `full` during the current outage (logged once when it starts and once when it ends). */
  #droppedThisOutage = 0;

  constructor(store: AuditStore, options: AuditWriterOptions = {}) {
    this.#store = store;
    this.#options = options;
    this.#logger = options.logger ?? noopLogger;
    this.#batchSize = Math.max(1, options.batchSize ?? DEFAULT_AUDIT_BATCH_SIZE);
    this.#maxBuffered = Math.max(1, options.maxBuffered ?? DEFAULT_AUDIT_MAX_BUFFERED);
  }

  /** Queues one entry (stamped now). Never throws; write failures are retried, drops are counted. */
  write(entry: AuditRecord): void {
    if (this.#closed) {
      this.#drop('closed', 1, 'audit entry after close, dropped', { tool: entry.tool });
      return;
    }
    if (this.#buffer.length >= this.#maxBuffered) {
      if (this.#droppedThisOutage === 0) {
        this.#logger.error('the audit buffer is full: new audit entries are dropped until the database takes writes again', { buffered: this.#buffer.length });
      }
      this.#droppedThisOutage++;
      this.#dropped.full++;
      return;
    }
    this.#buffer.push(stamped(entry));
    // While waiting to retry, the retry timer writes everything; new entries only join the queue.
    if (this.#retryTimer !== undefined) return;
    if (this.#buffer.length >= this.#batchSize) {
      void this.flush();
    } else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => void this.flush(), this.#options.flushIntervalMs ?? DEFAULT_AUDIT_FLUSH_MS);
      this.#timer.unref();
    }
  }

  /** Tries to write everything queued so far; resolves when that attempt ends (a failed one schedules a retry). */
  flush(): Promise<void> {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    // One write at a time, in order.
    this.#writing = this.#writing.then(() => this.#writeBuffered());
    return this.#writing;
  }

  /** The writer's counters. */
  stats(): AuditWriterStats {
    return { written: this.#written, buffered: this.#buffer.length, writeFailures: this.#writeFailures, dropped: { ...this.#dropped } };
  }

  /**
   * Stops taking entries and writes what is left, retrying for up to `closeTimeoutMs`; entries still
   * unwritten then are dropped (counted, logged). Idempotent.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#closed = true;
      const deadline = Date.now() + (this.#options.closeTimeoutMs ?? DEFAULT_AUDIT_CLOSE_TIMEOUT_MS);
      this.#cancelRetry();
      await this.flush();
      while (this.#buffer.length > 0 && Date.now() < deadline) {
        this.#cancelRetry();
        await new Promise((resolve) => setTimeout(resolve, Math.min(this.#nextRetryDelay(), Math.max(0, deadline - Date.now()))));
        await this.flush();
      }
      this.#cancelRetry();
      if (this.#buffer.length > 0) {
        this.#drop('closed', this.#buffer.length, 'closing with audit entries the database did not take: they are lost', {});
        this.#buffer = [];
      }
    })();
    return this.#closing;
  }

  async #writeBuffered(): Promise<void> {
    while (this.#buffer.length > 0) {
      const batch = this.#buffer.slice(0, this.#batchSize);
      try {
        await this.#store.recordMany(batch);
      } catch (error) {
        this.#writeFailures++;
        if (isRejectedStatement(error)) {
          this.#buffer.splice(0, batch.length);
          this.#drop('rejected', batch.length, 'the database refused audit entries: they are dropped', { error: String(error) });
          continue;
        }
        this.#logger.warn('cannot write the audit log; retrying', { entries: this.#buffer.length, attempt: this.#failedAttempts + 1, error: String(error) });
        this.#scheduleRetry();
        return;
      }
      // Only this loop removes from the front, and new entries go to the back: the batch is still there.
      this.#buffer.splice(0, batch.length);
      this.#written += batch.length;
      if (this.#failedAttempts > 0 || this.#droppedThisOutage > 0) {
        this.#logger.info('the audit log is writable again', { failedAttempts: this.#failedAttempts, droppedWhileFull: this.#droppedThisOutage });
      }
      this.#failedAttempts = 0;
      this.#droppedThisOutage = 0;
    }
  }

  #scheduleRetry(): void {
    const delay = this.#nextRetryDelay();
    this.#failedAttempts++;
    if (this.#closed) return; // close() drives its own attempts.
    this.#cancelRetry();
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      void this.flush();
    }, delay);
    this.#retryTimer.unref();
  }

  #nextRetryDelay(): number {
    return backoffDelay(this.#failedAttempts, { initialMs: this.#options.retryDelayMs ?? DEFAULT_AUDIT_RETRY_MS, maxMs: this.#options.maxRetryDelayMs ?? DEFAULT_AUDIT_MAX_RETRY_MS });
  }

  #cancelRetry(): void {
    if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
  }

  #drop(reason: AuditDropReason, count: number, message: string, fields: Record<string, unknown>): void {
    this.#dropped[reason] += count;
    this.#logger.error(message, { ...fields, entries: count, reason });
  }
}

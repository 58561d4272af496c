/**
 * @module registry/audit-writer
 * Audit entries of tool calls, written in batches: one multi-row insert per interval instead of a
 * transaction per call, so auditing stays off the per-call path (one insert per call cost about as
 * much as the call itself on SQLite). Entries get their id and time when the call ends, so order is
 * kept; `close()` writes what is left.
 */

import { noopLogger, type Logger } from '../logger.js';
import type { AuditRecord, AuditStore } from './audit-store.js';
import { newId } from './new-id.js';
import { timestamp } from './registry-context.js';

/** Longest an entry waits before it is written. @default 200 */
export const DEFAULT_AUDIT_FLUSH_MS = 200;
/** Entries that trigger a write at once. @default 200 */
export const DEFAULT_AUDIT_BATCH_SIZE = 200;

/** Options of an {@link AuditWriter}. */
export interface AuditWriterOptions {
  /** @default DEFAULT_AUDIT_FLUSH_MS */
  flushIntervalMs?: number;
  /** @default DEFAULT_AUDIT_BATCH_SIZE */
  batchSize?: number;
  logger?: Logger;
}

/** Buffers audit entries and writes them in batches. */
export class AuditWriter {
  readonly #store: AuditStore;
  readonly #options: AuditWriterOptions;
  readonly #logger: Logger;
  #buffer: AuditRecord[] = [];
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(store: AuditStore, options: AuditWriterOptions = {}) {
    this.#store = store;
    this.#options = options;
    this.#logger = options.logger ?? noopLogger;
  }

  /** Queues one entry (stamped now). Never throws; write failures are logged. */
  write(entry: AuditRecord): void {
    if (this.#closed) {
      this.#logger.warn('audit entry after close, dropped', { tool: entry.tool });
      return;
    }
    this.#buffer.push({ ...entry, id: entry.id ?? newId(), createdAt: entry.createdAt ?? timestamp() });
    if (this.#buffer.length >= (this.#options.batchSize ?? DEFAULT_AUDIT_BATCH_SIZE)) {
      void this.flush();
    } else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => void this.flush(), this.#options.flushIntervalMs ?? DEFAULT_AUDIT_FLUSH_MS);
      this.#timer.unref();
    }
  }

  /** Writes everything queued so far. */
  flush(): Promise<void> {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#buffer;
    this.#buffer = [];
    // One write at a time, in order.
    this.#writing = this.#writing.then(async () => {
      if (batch.length === 0) return;
      try {
        await this.#store.recordMany(batch);
      } catch (error) {
        this.#logger.warn('cannot write the audit log', { entries: batch.length, error: String(error) });
      }
    });
    return this.#writing;
  }

  /** Writes what is left and stops. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
  }
}

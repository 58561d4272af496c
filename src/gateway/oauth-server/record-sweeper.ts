/**
 * @module gateway/oauth-server/record-sweeper
 * Expired OAuth records (codes, access tokens, sessions, used DPoP proofs — one per DPoP request)
 * are deleted every {@link RECORD_SWEEP_INTERVAL_MS}; without it `oauth_records` only grows. Every
 * replica sweeps: the delete is idempotent.
 */

import type { Logger } from '../../logger.js';
import type { OAuthServerStore } from '../../registry/index.js';

/** How often expired records are deleted. @default 600000 (10 minutes) */
export const RECORD_SWEEP_INTERVAL_MS = 10 * 60_000;

/** Deletes expired OAuth records on a timer until {@link RecordSweeper.close}. */
export class RecordSweeper {
  readonly #store: OAuthServerStore;
  readonly #logger: Logger;
  readonly #timer: NodeJS.Timeout;
  #running: Promise<void> | undefined;

  constructor(store: OAuthServerStore, logger: Logger, intervalMs: number = RECORD_SWEEP_INTERVAL_MS) {
    this.#store = store;
    this.#logger = logger;
    this.#timer = setInterval(() => this.#sweep(), intervalMs);
    // Housekeeping never keeps the process alive.
    this.#timer.unref();
  }

  #sweep(): void {
    if (this.#running !== undefined) return;
    this.#running = this.#store
      .deleteExpired()
      .then(
        (deleted) => {
          if (deleted > 0) this.#logger.debug('expired OAuth records deleted', { deleted });
        },
        (error: unknown) => this.#logger.warn('deleting expired OAuth records failed', { error: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => (this.#running = undefined));
  }

  /** Stops the timer and waits for a sweep under way. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }
}

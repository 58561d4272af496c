/**
 * @module client/servers/start-retry
 * Retrying, in the background, a server that failed to start (and one without a restart policy that
 * went down): the delay doubles from `retryDelayMs` up to `maxRetryDelayMs`, with jitter.
 *
 * Kept in this one file on purpose: start-up retry belongs to the connection's Supervisor
 * (`src/connection/`), and once that owns it, this file goes, with its one-line call sites:
 * `retryStartLater` in start-server.ts (called from start-server, start-all, apply-reconfigure and
 * observe-connection's `restart === false` patch) and `cancelStartRetry` in retire-slot,
 * close-slots and start-on-request; `ServerSlot.startRetry`; and the retry options' defaults.
 */

import type { ClientCore } from '../client-core.js';
import type { ServerSlot } from './server-slot.js';

/** First delay before retrying a server that failed; doubles up to {@link DEFAULT_MAX_RETRY_DELAY_MS}. */
export const DEFAULT_RETRY_DELAY_MS = 1_000;
/** Longest delay between background retries. */
export const DEFAULT_MAX_RETRY_DELAY_MS = 30_000;

/** One server's pending background retry. */
export interface StartRetry {
  timer: NodeJS.Timeout | undefined;
  attempt: number;
}

/** A slot's retry state before any failure. */
export function noStartRetry(): StartRetry {
  return { timer: undefined, attempt: 0 };
}

/** Cancels a pending retry; `reset` also starts the backoff over (after a success or a manual retry). */
export function cancelStartRetry(retry: StartRetry, reset = false): void {
  if (retry.timer !== undefined) clearTimeout(retry.timer);
  retry.timer = undefined;
  if (reset) retry.attempt = 0;
}

/** Schedules `start` after the next backoff delay, unless retries are off, closing, or one is pending. */
export function scheduleStartRetry(core: ClientCore, slot: ServerSlot, start: () => void): void {
  const retry = slot.startRetry;
  if (!core.started || slot.connection === undefined || core.options.retryFailedServers === false || core.closing || slot.retired || retry.timer !== undefined) return;
  const base = core.options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  const max = core.options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
  const delay = Math.min(max, base * 2 ** retry.attempt) * (0.8 + Math.random() * 0.4);
  retry.attempt++;
  retry.timer = setTimeout(() => {
    retry.timer = undefined;
    if (core.closing || slot.retired) return;
    start();
  }, delay);
  retry.timer.unref();
}

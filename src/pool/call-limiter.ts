/**
 * @module pool/call-limiter
 * At most N calls of one user at a time; more wait in order, up to a deadline (or their own signal).
 */

import { ErrorCode, SwitchboardError } from '../errors.js';

/** How long a call waits for a free slot before failing. @default 30000 */
export const DEFAULT_CALL_QUEUE_TIMEOUT_MS = 30_000;

interface Waiter {
  start: () => void;
  fail: (error: SwitchboardError) => void;
}

/** A counting semaphore with a FIFO queue. */
export class CallLimiter {
  #limit: number;
  #active = 0;
  readonly #queue: Waiter[] = [];

  /** `limit`: calls at once (Infinity for none). */
  constructor(limit: number) {
    this.#limit = limit;
  }

  get limit(): number {
    return this.#limit;
  }

  /** Calls running now. */
  get active(): number {
    return this.#active;
  }

  /** Calls waiting for a slot. */
  get waiting(): number {
    return this.#queue.length;
  }

  /** Changes the limit; waiting calls start if it grew. */
  setLimit(limit: number): void {
    this.#limit = limit;
    this.#drain();
  }

  /**
   * Runs `task` when a slot is free. Waiting ends with LIMIT_EXCEEDED after `queueTimeoutMs`, or
   * REQUEST_CANCELLED when `signal` aborts.
   */
  async run<T>(task: () => Promise<T>, options: { signal?: AbortSignal; queueTimeoutMs?: number; subject?: string } = {}): Promise<T> {
    if (this.#active >= this.#limit) await this.#wait(options);
    else this.#active++;
    try {
      return await task();
    } finally {
      this.#active--;
      this.#drain();
    }
  }

  /**
   * Takes a slot now if one is free (and nobody waits for it): true, and the caller must
   * {@link finish} it. The per-call path's way in, without `run`'s promise and closures.
   */
  tryStart(): boolean {
    if (this.#active >= this.#limit || this.#queue.length > 0) return false;
    this.#active++;
    return true;
  }

  /** Gives back a slot taken by {@link tryStart}. */
  finish(): void {
    this.#active--;
    this.#drain();
  }

  /** Fails every waiting call (used on close). */
  rejectWaiting(error: SwitchboardError): void {
    for (const waiter of this.#queue.splice(0)) waiter.fail(error);
  }

  #wait(options: { signal?: AbortSignal; queueTimeoutMs?: number; subject?: string }): Promise<void> {
    const timeoutMs = options.queueTimeoutMs ?? DEFAULT_CALL_QUEUE_TIMEOUT_MS;
    return new Promise<void>((resolve, reject) => {
      const cleanup = (): void => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        const index = this.#queue.indexOf(waiter);
        if (index >= 0) this.#queue.splice(index, 1);
      };
      const waiter: Waiter = {
        start: () => {
          cleanup();
          resolve();
        },
        fail: (error) => {
          cleanup();
          reject(error);
        },
      };
      const onAbort = (): void => waiter.fail(new SwitchboardError(ErrorCode.RequestCancelled, 'cancelled while waiting for a free call slot'));
      const timer = setTimeout(() => {
        waiter.fail(
          new SwitchboardError(ErrorCode.LimitExceeded, `${options.subject ?? 'this user'} has ${this.#active} calls running, the limit; waited ${timeoutMs} ms for one to end`, {
            hint: 'make fewer calls at once, or an admin can raise maxConcurrentCalls',
            details: { limit: this.#limit, retryable: true },
          }),
        );
      }, timeoutMs);
      if (options.signal?.aborted === true) {
        onAbort();
        return;
      }
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter);
    });
  }

  #drain(): void {
    while (this.#active < this.#limit && this.#queue.length > 0) {
      const next = this.#queue[0];
      if (next === undefined) break;
      this.#active++;
      next.start();
    }
  }
}

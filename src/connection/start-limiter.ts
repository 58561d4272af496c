/**
 * @module connection/start-limiter
 * Bounds how many server processes start at once. Eleven `npx` servers spawned together on two cores
 * each take ~10 s instead of 0.1–1.8 s alone, and miss a 10 s deadline; started a few at a time they
 * all come up, and the whole start takes about as long.
 */

import { availableParallelism } from 'node:os';

/** Concurrent starts when nothing else is said: twice the CPU count, at least 2. */
export const DEFAULT_MAX_CONCURRENT_STARTS = Math.max(2, availableParallelism() * 2);

/** A FIFO counting semaphore for process starts. */
export class StartLimiter {
  readonly max: number;
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  /** @param max concurrent starts, at least 1. */
  constructor(max: number = DEFAULT_MAX_CONCURRENT_STARTS) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`StartLimiter: max must be an integer of at least 1, got ${String(max)}`);
    this.max = max;
  }

  /** Starts running now. */
  get running(): number {
    return this.#running;
  }

  /** Starts waiting for a slot. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * Resolves with a release function once a slot is free (first come, first served); rejects with
   * the signal's reason if it aborts first. Releasing twice is harmless.
   */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    if (this.#running < this.max) {
      this.#running++;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const grant = (): void => {
        signal?.removeEventListener('abort', onAbort);
        this.#running++;
        resolve(this.#releaser());
      };
      const onAbort = (): void => {
        const index = this.#waiting.indexOf(grant);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(grant);
    });
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#running--;
      this.#waiting.shift()?.();
    };
  }
}

let shared: StartLimiter | undefined;

/** The limiter every connection uses unless given one: one per process, so many clients share it. */
export function sharedStartLimiter(): StartLimiter {
  shared ??= new StartLimiter();
  return shared;
}

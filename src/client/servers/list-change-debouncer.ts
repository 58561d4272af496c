/**
 * @module client/servers/list-change-debouncer
 * Debounce of a server's `list_changed` notifications, one timer per list kind. A burst of
 * notifications causes one re-list after it ends; a flood that never pauses would restart the
 * debounce forever and the catalog would never refresh, so a re-list also happens at the latest
 * `maxWaitMs` after the first notification still waiting.
 */

/** Longest a `list_changed` waits for its re-list while notifications keep coming. @default 1000 */
export const DEFAULT_LIST_CHANGED_MAX_WAIT_MS = 1_000;

/** Options of a {@link ListChangeDebouncer}. */
export interface ListChangeDebouncerOptions {
  /** Quiet time before the re-list; 0 or less re-lists at once. */
  delayMs: number;
  /** Longest wait from the first pending notification. @default DEFAULT_LIST_CHANGED_MAX_WAIT_MS */
  maxWaitMs?: number;
  /** @default Date.now */
  now?: () => number;
}

/** Runs a task per key after notifications settle, or at the latest after the maximum wait. */
export class ListChangeDebouncer {
  readonly #options: ListChangeDebouncerOptions;
  readonly #pending = new Map<string, { timer: NodeJS.Timeout; firstAt: number }>();

  constructor(options: ListChangeDebouncerOptions) {
    this.#options = options;
  }

  /** A notification for `key`: `task` runs once when they pause for `delayMs`, or `maxWaitMs` after the first. */
  trigger(key: string, task: () => void): void {
    const { delayMs } = this.#options;
    const now = (this.#options.now ?? Date.now)();
    const pending = this.#pending.get(key);
    if (pending !== undefined) clearTimeout(pending.timer);
    if (delayMs <= 0) {
      // No debouncing asked: run now rather than after a timer's minimum 1 ms.
      this.#pending.delete(key);
      task();
      return;
    }
    const firstAt = pending?.firstAt ?? now;
    const maxWaitMs = Math.max(delayMs, this.#options.maxWaitMs ?? DEFAULT_LIST_CHANGED_MAX_WAIT_MS);
    const wait = Math.max(0, Math.min(delayMs, firstAt + maxWaitMs - now));
    const timer = setTimeout(() => {
      this.#pending.delete(key);
      task();
    }, wait);
    this.#pending.set(key, { timer, firstAt });
  }

  /** Drops every pending task. */
  cancelAll(): void {
    for (const { timer } of this.#pending.values()) clearTimeout(timer);
    this.#pending.clear();
  }
}

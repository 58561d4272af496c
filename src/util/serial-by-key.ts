/**
 * @module util/serial-by-key
 * Tasks run one after another per key (the writes of one server's record never overtake each other)
 * and concurrently across keys, with a `flush()` that waits for everything started so far.
 */

/** A queue of tasks per key. */
export class SerialByKey {
  readonly #running = new Map<string, Promise<void>>();

  /** Runs `task` once the tasks started before it for `key` have ended (a task should not reject: a rejected one stops the tasks queued behind it). */
  run(key: string, task: () => Promise<void>): Promise<void> {
    const previous = this.#running.get(key) ?? Promise.resolve();
    const next = previous.then(task);
    this.#running.set(key, next);
    void next.finally(() => this.#running.get(key) === next && this.#running.delete(key));
    return next;
  }

  /** Resolves once every task started so far has ended. */
  async flush(): Promise<void> {
    await Promise.all(this.#running.values());
  }

  /** Keys with a task running or queued. */
  get size(): number {
    return this.#running.size;
  }
}

/**
 * @module util/typed-emitter
 * A minimal typed event emitter: one payload object per event, listener errors contained (a failing
 * listener is reported, never thrown into the connection that emitted).
 */

/** A listener of event payload `T`. */
export type Listener<T> = (payload: T) => void;

/** Typed `on` / `off` / `once` over a map of event name → payload. */
export class TypedEmitter<Events extends object> {
  readonly #listeners = new Map<keyof Events, Set<Listener<never>>>();
  /** Called with errors thrown by listeners. */
  protected onListenerError: (error: unknown, event: string) => void = () => {};

  /** Adds a listener. */
  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): this {
    let set = this.#listeners.get(event);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener as Listener<never>);
    return this;
  }

  /** Removes a listener. */
  off<K extends keyof Events>(event: K, listener: Listener<Events[K]>): this {
    this.#listeners.get(event)?.delete(listener as Listener<never>);
    return this;
  }

  /** Adds a listener called at most once. */
  once<K extends keyof Events>(event: K, listener: Listener<Events[K]>): this {
    const wrapper: Listener<Events[K]> = (payload) => {
      this.off(event, wrapper);
      listener(payload);
    };
    return this.on(event, wrapper);
  }

  /** Number of listeners of `event`. */
  listenerCount(event: keyof Events): number {
    return this.#listeners.get(event)?.size ?? 0;
  }

  /** Removes every listener (used by `close()`). */
  removeAllListeners(): void {
    this.#listeners.clear();
  }

  protected emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    const set = this.#listeners.get(event);
    if (set === undefined || set.size === 0) return;
    for (const listener of [...set]) {
      try {
        (listener as Listener<Events[K]>)(payload);
      } catch (error) {
        this.onListenerError(error, String(event));
      }
    }
  }
}

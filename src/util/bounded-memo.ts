/**
 * @module util/bounded-memo
 * Results of a pure function by its string argument, for the few values a hot path sees again and
 * again (a request's Host header), with a bound: past {@link BOUNDED_MEMO_SIZE} keys it starts over,
 * so a client sending a new value each time costs a `Map.clear` now and then, never memory.
 */

/** Most keys kept before the memo starts over. @default 256 */
export const BOUNDED_MEMO_SIZE = 256;

/** A memo of `compute` by key (`null`: the value is absent, e.g. no header). */
export class BoundedMemo<T> {
  readonly #values = new Map<string | null, T>();
  readonly #size: number;

  constructor(size: number = BOUNDED_MEMO_SIZE) {
    this.#size = size;
  }

  /** The value for `key`, computed on the first call with it. */
  get(key: string | null, compute: () => T): T {
    if (this.#values.has(key)) return this.#values.get(key) as T;
    const value = compute();
    if (this.#values.size >= this.#size) this.#values.clear();
    this.#values.set(key, value);
    return value;
  }
}

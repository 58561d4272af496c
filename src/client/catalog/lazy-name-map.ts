/**
 * @module client/catalog/lazy-name-map
 * A name → value map that is filled in on the first lookup instead of while it is written. The
 * catalog writes one entry per tool on every rebuild (each item's prefixed form, and the names of
 * servers that are not up) but looks one up only on a miss of the exposed names, which is rare:
 * recording the writes in two arrays is much cheaper than hashing them into a map every time.
 */

/** Writes recorded in order, replayed into a map on the first {@link get}. */
export class LazyNameMap<V> {
  readonly #names: string[] = [];
  readonly #values: V[] = [];
  /** Per write: true when it only applies if the name is not there yet. */
  readonly #onlyNew: boolean[] = [];
  #map: Map<string, V> | undefined;

  /** Like `Map.set`: the last write of a name wins. */
  set(name: string, value: V): void {
    this.#record(name, value, false);
  }

  /** Sets `name` unless an earlier write has. */
  setIfAbsent(name: string, value: V): void {
    this.#record(name, value, true);
  }

  get(name: string): V | undefined {
    return this.#materialize().get(name);
  }

  #record(name: string, value: V, onlyNew: boolean): void {
    if (this.#map !== undefined) {
      if (!onlyNew || !this.#map.has(name)) this.#map.set(name, value);
      return;
    }
    this.#names.push(name);
    this.#values.push(value);
    this.#onlyNew.push(onlyNew);
  }

  #materialize(): Map<string, V> {
    if (this.#map !== undefined) return this.#map;
    const map = new Map<string, V>();
    for (let index = 0; index < this.#names.length; index++) {
      const name = this.#names[index] as string;
      if (this.#onlyNew[index] !== true || !map.has(name)) map.set(name, this.#values[index] as V);
    }
    this.#map = map;
    this.#names.length = 0;
    this.#values.length = 0;
    this.#onlyNew.length = 0;
    return map;
  }
}

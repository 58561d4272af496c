/**
 * @module util/inner-map
 * The map under `key` of a map of maps, created empty on first use: the get-or-create step of the
 * nested lookups the per-call metrics use instead of building a key string (no closure: the value made
 * is always a new `Map`).
 */

/** A `Map` or a `WeakMap` of maps. */
interface MapOfMaps<K, IK, V> {
  get(key: K): Map<IK, V> | undefined;
  set(key: K, value: Map<IK, V>): unknown;
}

/** The inner map of `outer` under `key` (added when missing). */
export function innerMap<K, IK, V>(outer: MapOfMaps<K, IK, V>, key: K): Map<IK, V> {
  let inner = outer.get(key);
  if (inner === undefined) {
    inner = new Map();
    outer.set(key, inner);
  }
  return inner;
}

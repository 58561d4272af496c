/**
 * @module config/field-path
 * Reading and writing one field of a server entry by its path (`['oauth', 'clientSecret']`), without
 * changing the entry given: the field lists (`secret-fields.ts`, `local-path-fields.ts`) name fields
 * this way, so that masking, sealing and the tenant checks walk the same paths.
 */

/** A field of a server entry, as a list of keys (`['oauth', 'idp', 'idToken']`). */
export type FieldPath = readonly string[];

/** The value at `path`, or undefined when a step on the way is missing or not an object. */
export function valueAtPath(entry: unknown, path: FieldPath): unknown {
  let current: unknown = entry;
  for (const key of path) {
    if (!isPlainObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

/**
 * A copy of `entry` with `value` at `path` (undefined: the field removed). Objects on the way are
 * copied, never changed; missing ones are created. An object left empty by a removal is kept.
 */
export function withValueAtPath(entry: Readonly<Record<string, unknown>>, path: FieldPath, value: unknown): Record<string, unknown> {
  const [key, ...rest] = path;
  const copy: Record<string, unknown> = { ...entry };
  if (key === undefined) return copy;
  if (rest.length === 0) {
    if (value === undefined) delete copy[key];
    else copy[key] = value;
    return copy;
  }
  const child = copy[key];
  if (!isPlainObject(child) && value === undefined) return copy;
  copy[key] = withValueAtPath(isPlainObject(child) ? child : {}, rest, value);
  return copy;
}

/** The dotted form of a path, as config errors name fields (`oauth.privateKeyFile`). */
export function dottedPath(path: FieldPath): string {
  return path.join('.');
}

/** True for a JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

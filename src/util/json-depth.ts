/**
 * @module util/json-depth
 * Whether a parsed JSON value nests deeper than a bound, found without recursion (a value nested
 * 100,000 levels deep is what it guards against: recursive code — `JSON.stringify`, schema compilers,
 * log redaction — overflows the stack on it).
 */

/** True when `value` has arrays or objects nested more than `max` levels deep. */
export function deeperThan(value: unknown, max: number): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const { value: next, depth } = pending.pop() as { value: unknown; depth: number };
    if (typeof next !== 'object' || next === null) continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(next) ? next : Object.values(next)) if (typeof child === 'object' && child !== null) pending.push({ value: child, depth: depth + 1 });
  }
  return false;
}

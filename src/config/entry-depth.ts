/**
 * @module config/entry-depth
 * A depth limit for server entries. Entries are walked recursively (env expansion, policy checks,
 * masking), and a body nested tens of thousands of levels deep would overflow the stack there; a
 * real entry is a few levels deep, so anything past {@link MAX_ENTRY_DEPTH} is refused up front by an
 * iterative walk that is safe at any depth.
 */

import { ConfigError, type ConfigIssue } from '../errors.js';

/** Most levels of objects and arrays inside a server entry (the entry itself is level 1). @default 32 */
export const MAX_ENTRY_DEPTH = 32;

/** The issue of the first place in `value` nested deeper than `maxDepth`, or undefined; `path` names `value`. */
export function entryDepthIssue(value: unknown, path: string, maxDepth: number = MAX_ENTRY_DEPTH): ConfigIssue | undefined {
  // Each item is a container, its path and its depth; only containers up to maxDepth are ever pushed.
  const stack: Array<{ value: object; path: string; depth: number }> = [];
  if (typeof value === 'object' && value !== null) stack.push({ value, path, depth: 1 });
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === undefined) break;
    for (const [key, child] of Object.entries(item.value)) {
      if (typeof child !== 'object' || child === null) continue;
      const childPath = `${item.path}.${key}`;
      if (item.depth + 1 > maxDepth) {
        return { path: childPath, message: `is nested more than ${maxDepth} levels deep`, hint: `a server entry needs only a few levels; at most ${maxDepth} are accepted` };
      }
      stack.push({ value: child, path: childPath, depth: item.depth + 1 });
    }
  }
  return undefined;
}

/** Throws CONFIG_INVALID when `entry` is nested deeper than {@link MAX_ENTRY_DEPTH}. */
export function assertEntryDepth(entry: unknown, path: string): void {
  const issue = entryDepthIssue(entry, path);
  if (issue !== undefined) throw new ConfigError([issue], [], path);
}

/**
 * @module client/servers/reconfigure-plan
 * What a reconfiguration does, decided from the old and the new server list alone (a pure function):
 * which servers are added, removed, restarted (their entry changed) or kept as they are.
 */

import type { ServerSpec } from '../../config/server-spec.js';

/** What {@link MultiServerClient.reconfigure} did, by server name. */
export interface ReconfigureResult {
  added: string[];
  removed: string[];
  /** Servers whose entry changed: a new connection replaced the old one. */
  restarted: string[];
  /** Servers whose entry is the same: their process or session, cache and stats carry on. */
  unchanged: string[];
}

/**
 * The plan for going from `current` to `next` specs. Names keep the order of `next` (removed ones the
 * order of `current`). An entry is unchanged only when it is the same in every field.
 */
export function planReconfigure(current: Iterable<ServerSpec>, next: readonly ServerSpec[]): ReconfigureResult {
  const before = new Map<string, string>();
  for (const spec of current) before.set(spec.name, JSON.stringify(spec));
  const plan: ReconfigureResult = { added: [], removed: [], restarted: [], unchanged: [] };
  const names = new Set<string>();
  for (const spec of next) {
    names.add(spec.name);
    const old = before.get(spec.name);
    if (old === undefined) plan.added.push(spec.name);
    else if (old === JSON.stringify(spec)) plan.unchanged.push(spec.name);
    else plan.restarted.push(spec.name);
  }
  for (const name of before.keys()) if (!names.has(name)) plan.removed.push(name);
  return plan;
}

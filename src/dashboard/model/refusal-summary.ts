/**
 * @module dashboard/model/refusal-summary
 * Calls refused before anything was sent (invalid arguments, no such tool, server not up), as the
 * Metrics page shows them: a total, and the codes behind it.
 */

import type { ClientStats } from '../../contract/api-contract.js';

/** A total and its codes: `INVALID_ARGUMENT × 2, TOOL_NOT_FOUND × 1` (most first); `''` when none. */
export interface RefusalSummary {
  total: number;
  byCode: string;
}

/** The summary of counts by code (absent in stats from a gateway that did not count refusals). */
export function refusalSummary(refused: Readonly<Record<string, number>> | undefined): RefusalSummary {
  const entries = Object.entries(refused ?? {})
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return { total: entries.reduce((sum, [, count]) => sum + count, 0), byCode: entries.map(([code, count]) => `${code} × ${count}`).join(', ') };
}

/** Refusals that no listed server has (a name no server owns): the top-level counts less the servers'. */
export function refusalsOfNoServer(stats: Pick<ClientStats, 'refused' | 'servers'>): Record<string, number> {
  const left = new Map(Object.entries(stats.refused ?? {}));
  for (const server of stats.servers) for (const [code, count] of Object.entries(server.refused ?? {})) left.set(code, (left.get(code) ?? 0) - count);
  return Object.fromEntries([...left].filter(([, count]) => count > 0));
}

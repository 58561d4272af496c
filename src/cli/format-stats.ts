/**
 * @module cli/format-stats
 * A plain-text table of client stats (per server, then per tool), then errors and refusals by code.
 */

import type { CallStats, ClientStats } from '../metrics/stats-collector.js';

const COLUMNS = ['calls', 'ok', 'refused', 'err%', 'p50 ms', 'p95 ms', 'p99 ms', 'timeouts', 'cancel', 'in-flight', 'cache hit/miss', 'retries', 'restarts'] as const;

/** Renders stats as an aligned table. */
export function formatStats(stats: ClientStats): string {
  const rows: string[][] = [['server / tool', 'state', ...COLUMNS]];
  for (const server of stats.servers) {
    rows.push([server.server, server.state, ...cells(server), String(server.restarts)]);
    for (const tool of server.tools) rows.push([`  ${tool.tool}`, '', ...cells(tool), '']);
  }
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  const lines = rows.map((row) => row.map((cell, column) => (column < 2 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  '));
  const errors = stats.servers.flatMap((server) => Object.entries(server.errors).map(([code, count]) => `  ${server.server}: ${code} × ${count}`));
  const refused = refusedLines(stats);
  return [...lines, ...(errors.length > 0 ? ['', 'errors by code:', ...errors] : []), ...(refused.length > 0 ? ['', 'refused before sending, by code:', ...refused] : [])].join('\n');
}

/** Refusals per server, then those no listed server has (an unknown tool name). */
function refusedLines(stats: ClientStats): string[] {
  const lines: string[] = [];
  const unattributed = new Map(Object.entries(countsOf(stats.refused)));
  for (const server of stats.servers) {
    for (const [code, count] of Object.entries(countsOf(server.refused))) {
      lines.push(`  ${server.server}: ${code} × ${count}`);
      unattributed.set(code, (unattributed.get(code) ?? 0) - count);
    }
  }
  for (const [code, count] of unattributed) if (count > 0) lines.push(`  (no server): ${code} × ${count}`);
  return lines;
}

/** Counts by code; a gateway from before refusals were counted sends none. */
function countsOf(counts: Record<string, number> | undefined): Record<string, number> {
  return counts ?? {};
}

function cells(stats: CallStats): string[] {
  const ms = (value: number): string => (stats.latency.count === 0 ? '-' : value < 10 ? value.toFixed(2) : value.toFixed(0));
  return [
    String(stats.calls),
    String(stats.ok),
    String(Object.values(countsOf(stats.refused)).reduce((sum, count) => sum + count, 0)),
    stats.calls === 0 ? '-' : (stats.errorRate * 100).toFixed(1),
    ms(stats.latency.p50),
    ms(stats.latency.p95),
    ms(stats.latency.p99),
    String(stats.timeouts),
    String(stats.cancellations),
    String(stats.inFlight),
    `${stats.cacheHits}/${stats.cacheMisses}`,
    String(stats.retries),
  ];
}

/**
 * @module cli/format-stats
 * A plain-text table of client stats (per server, then per tool).
 */

import type { CallStats, ClientStats } from '../metrics/stats-collector.js';

const COLUMNS = ['calls', 'ok', 'err%', 'p50 ms', 'p95 ms', 'p99 ms', 'timeouts', 'cancel', 'in-flight', 'cache hit/miss', 'retries', 'restarts'] as const;

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
  return [...lines, ...(errors.length > 0 ? ['', 'errors by code:', ...errors] : [])].join('\n');
}

function cells(stats: CallStats): string[] {
  const ms = (value: number): string => (stats.latency.count === 0 ? '-' : value < 10 ? value.toFixed(2) : value.toFixed(0));
  return [
    String(stats.calls),
    String(stats.ok),
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

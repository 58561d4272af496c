/**
 * @module metrics/merge-client-stats
 * Adds up the `client.stats()` of one user on several gateway replicas (issue 20): counters are
 * summed; latency percentiles cannot be merged exactly from summaries, so each is the count-weighted
 * mean of the parts' (exact for one part, an estimate for several; `max` and `mean` are exact).
 * Timelines are merged by bucket start. A server's `state` is the first part's that has it (the
 * caller puts its own replica first).
 */

import type { CallStats, ClientStats, LatencySummary, ServerStats, TimelinePoint, ToolStats } from './stats-types.js';

/** The sum of `parts` (at least one). */
export function mergeClientStats(parts: readonly ClientStats[]): ClientStats {
  const [first, ...rest] = parts;
  if (first === undefined) return { since: Date.now(), refused: {}, servers: [] };
  if (rest.length === 0) return first;
  const servers = new Map<string, ServerStats[]>();
  for (const part of parts) for (const server of part.servers) servers.set(server.server, [...(servers.get(server.server) ?? []), server]);
  return {
    since: Math.min(...parts.map((part) => part.since)),
    refused: sumRecords(parts.map((part) => part.refused)),
    servers: [...servers.values()].map(mergeServer),
  };
}

function mergeServer(parts: readonly ServerStats[]): ServerStats {
  const tools = new Map<string, ToolStats[]>();
  for (const part of parts) for (const tool of part.tools) tools.set(tool.tool, [...(tools.get(tool.tool) ?? []), tool]);
  const head = parts[0];
  return {
    ...mergeCalls(parts),
    server: head?.server ?? '',
    state: head?.state ?? 'closed',
    restarts: sum(parts.map((part) => part.restarts)),
    tools: [...tools.values()].map((list) => ({ ...mergeCalls(list), server: list[0]?.server ?? '', tool: list[0]?.tool ?? '' })),
  };
}

function mergeCalls(parts: readonly CallStats[]): CallStats {
  const total = (key: 'calls' | 'ok' | 'toolErrors' | 'timeouts' | 'cancellations' | 'inFlight' | 'retries' | 'cacheHits' | 'cacheMisses'): number => sum(parts.map((part) => part[key]));
  const calls = total('calls');
  const ok = total('ok');
  return {
    calls,
    ok,
    refused: sumRecords(parts.map((part) => part.refused)),
    toolErrors: total('toolErrors'),
    errors: sumRecords(parts.map((part) => part.errors)),
    timeouts: total('timeouts'),
    cancellations: total('cancellations'),
    inFlight: total('inFlight'),
    retries: total('retries'),
    cacheHits: total('cacheHits'),
    cacheMisses: total('cacheMisses'),
    errorRate: calls === 0 ? 0 : (calls - ok) / calls,
    latency: mergeLatency(parts.map((part) => part.latency)),
    timeline: mergeTimelines(parts.map((part) => part.timeline)),
  };
}

function mergeLatency(parts: readonly LatencySummary[]): LatencySummary {
  const count = sum(parts.map((part) => part.count));
  if (count === 0) return { count: 0, p50: 0, p95: 0, p99: 0, max: 0, mean: 0 };
  const weighted = (key: 'p50' | 'p95' | 'p99' | 'mean'): number => sum(parts.map((part) => part[key] * part.count)) / count;
  return { count, p50: weighted('p50'), p95: weighted('p95'), p99: weighted('p99'), max: Math.max(...parts.map((part) => part.max)), mean: weighted('mean') };
}

function mergeTimelines(parts: ReadonlyArray<readonly TimelinePoint[]>): TimelinePoint[] {
  const buckets = new Map<number, TimelinePoint[]>();
  for (const timeline of parts) for (const point of timeline) buckets.set(point.start, [...(buckets.get(point.start) ?? []), point]);
  return [...buckets.entries()]
    .sort(([a], [b]) => a - b)
    .map(([start, points]) => {
      const calls = sum(points.map((point) => point.calls));
      const weighted = (key: 'p50' | 'p95'): number => (calls === 0 ? 0 : sum(points.map((point) => point[key] * point.calls)) / calls);
      return { start, calls, errors: sum(points.map((point) => point.errors)), p50: weighted('p50'), p95: weighted('p95') };
    });
}

function sumRecords(records: ReadonlyArray<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const record of records) for (const [key, value] of Object.entries(record)) out[key] = (out[key] ?? 0) + value;
  return out;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/**
 * @module metrics/prometheus
 * Prometheus metrics through `prom-client`, loaded only when metrics are asked for (the gateway's
 * `/metrics`, or `client.toPrometheus()`). Counters are seeded from the collector's totals and then
 * follow every call; gauges are read at scrape time.
 */

import type { Histogram, Registry } from 'prom-client';
import { LightHistogram, type HistogramSeries } from './light-histogram.js';
import { flushPending, pendingCountsOf, pendingEntry, type PendingCount } from './pending-counts.js';
import type { ClientStats, StatsCollector } from './stats-collector.js';
import { innerMap } from '../util/inner-map.js';

/** Options of {@link attachPrometheus}. */
export interface PrometheusOptions {
  /** Register into this registry (e.g. the gateway's); a new one by default. */
  registry?: Registry;
  /** Labels added to every series (e.g. `{ user: 'alice' }`). */
  labels?: Record<string, string>;
  /** Metric name prefix. @default 'mcp_' */
  prefix?: string;
}

/** The series one tool's calls update. */
interface ToolSeries {
  key: string;
  duration: HistogramSeries;
  ok: PendingCount | undefined;
  tool_error: PendingCount | undefined;
  error: PendingCount | undefined;
}

const LATENCY_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Creates the metrics of one client in a registry and keeps them current. Returns a detach function. */
export async function attachPrometheus(collector: StatsCollector, snapshot: () => ClientStats, options: PrometheusOptions = {}): Promise<{ registry: Registry; detach: () => void }> {
  const client = await import('prom-client');
  const registry = options.registry ?? new client.Registry();
  const prefix = options.prefix ?? 'mcp_';
  const extra = options.labels ?? {};
  const extraNames = Object.keys(extra);
  const metric = <T>(name: string, create: () => T): T => (registry.getSingleMetric(`${prefix}${name}`) as T | undefined) ?? create();

  // Per call: a Map update for the count and the latency (added to the series when scraped), not prom-client's label hashing (issue 17).
  const pendingCalls = pendingCountsOf(registry, `${prefix}tool_calls_total`);
  const calls = metric('tool_calls_total', () => new client.Counter({ name: `${prefix}tool_calls_total`, help: 'Tool calls by outcome (ok, tool_error, error, refused: never sent).', labelNames: [...extraNames, 'server', 'tool', 'outcome'], registers: [registry], collect() { flushPending(this, pendingCalls); } }));
  const errors = metric('tool_call_errors_total', () => new client.Counter({ name: `${prefix}tool_call_errors_total`, help: 'Failed tool calls by error code.', labelNames: [...extraNames, 'server', 'tool', 'code'], registers: [registry] }));
  const refused = metric('tool_calls_refused_total', () => new client.Counter({ name: `${prefix}tool_calls_refused_total`, help: 'Calls refused before anything was sent (invalid arguments, unknown tool, server not up) by error code; server and tool are empty where unknown.', labelNames: [...extraNames, 'server', 'tool', 'code'], registers: [registry] }));
  const duration = metric('tool_call_duration_seconds', () => {
    const histogram = new LightHistogram({ name: `${prefix}tool_call_duration_seconds`, help: 'Tool call latency.', buckets: LATENCY_BUCKETS_SECONDS });
    registry.registerMetric(histogram as unknown as Histogram);
    return histogram;
  });
  // Series keys: this client's extra labels (one registry may hold several clients), server, tool.
  const extraKey = JSON.stringify(extra);
  const cache = metric('tool_cache_lookups_total', () => new client.Counter({ name: `${prefix}tool_cache_lookups_total`, help: 'Result cache lookups by result (hit, miss).', labelNames: [...extraNames, 'server', 'tool', 'result'], registers: [registry] }));
  const restarts = metric('server_restarts_total', () => new client.Counter({ name: `${prefix}server_restarts_total`, help: 'Successful restarts or reconnects of a server.', labelNames: [...extraNames, 'server'], registers: [registry] }));

  // Gauges are read from the collector when scraped; several clients may share one registry.
  const sources = gaugeSources(registry);
  const source = { labels: extra, snapshot };
  sources.add(source);
  metric('tool_calls_in_flight', () => new client.Gauge({
    name: `${prefix}tool_calls_in_flight`, help: 'Tool calls in flight.', labelNames: [...extraNames, 'server', 'tool'], registers: [registry],
    collect() {
      this.reset();
      for (const { labels, snapshot: read } of sources) for (const server of read().servers) for (const tool of server.tools) this.set({ ...labels, server: server.server, tool: tool.tool }, tool.inFlight);
    },
  }));
  metric('server_up', () => new client.Gauge({
    name: `${prefix}server_up`, help: '1 when the server is ready (or degraded), else 0; the state is a label.', labelNames: [...extraNames, 'server', 'state'], registers: [registry],
    collect() {
      this.reset();
      for (const { labels, snapshot: read } of sources) for (const server of read().servers) this.set({ ...labels, server: server.server, state: server.state }, server.state === 'ready' || server.state === 'degraded' ? 1 : 0);
    },
  }));

  // Seed counters with what happened before metrics were asked for.
  const seed = snapshot();
  const unattributed = new Map(Object.entries(seed.refused));
  for (const server of seed.servers) {
    const serverOnly = new Map(Object.entries(server.refused));
    for (const [code, count] of Object.entries(server.refused)) unattributed.set(code, (unattributed.get(code) ?? 0) - count);
    if (server.restarts > 0) restarts.inc({ ...extra, server: server.server }, server.restarts);
    for (const tool of server.tools) {
      const base = { ...extra, server: server.server, tool: tool.tool };
      if (tool.ok > 0) calls.inc({ ...base, outcome: 'ok' }, tool.ok);
      if (tool.toolErrors > 0) calls.inc({ ...base, outcome: 'tool_error' }, tool.toolErrors);
      const toolRefused = Object.values(tool.refused).reduce((sum, count) => sum + count, 0);
      if (toolRefused > 0) calls.inc({ ...base, outcome: 'refused' }, toolRefused);
      const failed = tool.calls - tool.ok - tool.toolErrors - toolRefused;
      if (failed > 0) calls.inc({ ...base, outcome: 'error' }, failed);
      for (const [code, count] of Object.entries(tool.refused)) {
        refused.inc({ ...base, code }, count);
        serverOnly.set(code, (serverOnly.get(code) ?? 0) - count);
      }
      for (const [code, count] of Object.entries(tool.errors)) errors.inc({ ...base, code }, count);
      if (tool.cacheHits > 0) cache.inc({ ...base, result: 'hit' }, tool.cacheHits);
      if (tool.cacheMisses > 0) cache.inc({ ...base, result: 'miss' }, tool.cacheMisses);
    }
    for (const [code, count] of serverOnly) if (count > 0) refused.inc({ ...extra, server: server.server, tool: '', code }, count);
  }
  for (const [code, count] of unattributed) if (count > 0) refused.inc({ ...extra, server: '', tool: '', code }, count);
  const previousOnCall = collector.onCallEnded;
  const previousOnRestart = collector.onRestart;
  const previousOnRefused = collector.onCallRefused;
  // A tool's series, found by server then tool name (strings that keep their hash): no key string and no label closure per call (issue 17).
  const toolSeries = new Map<string, Map<string, ToolSeries>>();
  collector.onCallEnded = (outcome) => {
    previousOnCall?.(outcome);
    const { server, tool } = outcome;
    const kind = outcome.ok ? 'ok' : outcome.isError ? 'tool_error' : 'error';
    const byTool = innerMap(toolSeries, server);
    let series = byTool.get(tool);
    if (series === undefined) {
      const key = `${extraKey}\n${server}\n${tool}`;
      series = { key, duration: duration.series(key, () => ({ ...extra, server, tool })), ok: undefined, tool_error: undefined, error: undefined };
      byTool.set(tool, series);
    }
    (series[kind] ??= pendingEntry(pendingCalls, `${series.key}\n${kind}`, () => ({ ...extra, server, tool, outcome: kind }))).count++;
    if (outcome.errorCode !== undefined) errors.inc({ ...extra, server, tool, code: outcome.errorCode });
    duration.record(series.duration, outcome.durationMs / 1000);
  };
  collector.onCallRefused = (refusal) => {
    previousOnRefused?.(refusal);
    const base = { ...extra, server: refusal.server ?? '', tool: refusal.tool ?? '' };
    refused.inc({ ...base, code: refusal.code });
    // Where the tool is known the refusal is one of its calls, as in `stats()`.
    if (refusal.server !== undefined && refusal.tool !== undefined) {
      calls.inc({ ...base, outcome: 'refused' });
      errors.inc({ ...base, code: refusal.code });
    }
  };
  collector.onCacheLookup = (server, tool, hit) => cache.inc({ ...extra, server, tool, result: hit ? 'hit' : 'miss' });
  collector.onRestart = (server) => {
    previousOnRestart?.(server);
    restarts.inc({ ...extra, server });
  };
  return {
    registry,
    detach: () => {
      sources.delete(source);
      collector.onCallEnded = previousOnCall;
      collector.onRestart = previousOnRestart;
      collector.onCallRefused = previousOnRefused;
      collector.onCacheLookup = undefined;
    },
  };
}

const sourcesByRegistry = new WeakMap<Registry, Set<{ labels: Record<string, string>; snapshot: () => ClientStats }>>();
function gaugeSources(registry: Registry): Set<{ labels: Record<string, string>; snapshot: () => ClientStats }> {
  let set = sourcesByRegistry.get(registry);
  if (set === undefined) {
    set = new Set();
    sourcesByRegistry.set(registry, set);
  }
  return set;
}

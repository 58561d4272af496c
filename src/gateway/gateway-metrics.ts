/**
 * @module gateway/gateway-metrics
 * `/metrics`: one `prom-client` registry for the process. Each user's client registers its series
 * there with a `user` label (calls, errors, latency, cache, restarts, servers up); the gateway adds
 * its own (HTTP requests, sessions, pooled clients, calls in flight, refusals by the caps on sessions,
 * streams and connections). An administrator's scrape sees
 * everything; anyone else sees only the series labelled with their own user name.
 */

import type { Histogram, Registry } from 'prom-client';
import { LightHistogram, type HistogramSeries } from '../metrics/light-histogram.js';
import { flushPending, pendingEntry, type PendingCount, type PendingCounts } from '../metrics/pending-counts.js';
import type { MultiServerClient } from '../client/multi-server-client.js';
import type { Logger } from '../logger.js';
import type { AuditWriterStats, RegistryUser } from '../registry/index.js';
import type { UserClient } from '../pool/index.js';
import { innerMap } from '../util/inner-map.js';

/** Live numbers the gateway gauges read at scrape time. */
export interface GatewayGaugeSources {
  sessions(): number;
  clients(): number;
  callsInFlight(): number;
  /** The audit writer's counters; undefined when auditing is off. */
  audit?(): AuditWriterStats | undefined;
  /** Refusals by the gateway's caps, by option name (the gateway's `LimitRefusals`). */
  limitRefusals?(): ReadonlyMap<string, number>;
}

const DURATION_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The process's metrics. */
export class GatewayMetrics {
  readonly registry: Registry;
  /** Requests counted since the last scrape, by `method route status`: added to the counter when scraped (a `Map` update per request instead of prom-client's label hashing). */
  readonly #pendingRequests: PendingCounts;
  readonly #duration: LightHistogram;
  /** The series of each route and method, and its counts by status. */
  readonly #requestSeries = new Map<string, Map<string, { duration: HistogramSeries; byStatus: Map<number, PendingCount> }>>();
  readonly #attached = new WeakSet<MultiServerClient>();
  readonly #logger: Logger;

  private constructor(registry: Registry, pendingRequests: PendingCounts, duration: LightHistogram, logger: Logger) {
    this.registry = registry;
    this.#pendingRequests = pendingRequests;
    this.#duration = duration;
    this.#logger = logger;
  }

  /** Creates the registry and the gateway's own series. */
  static async create(sources: GatewayGaugeSources, logger: Logger): Promise<GatewayMetrics> {
    const client = await import('prom-client');
    const registry = new client.Registry();
    // Counted per request in a Map and added to the counter when scraped; the histogram keys its
    // series by the caller's string: prom-client's label hashing was ~1.5 µs per request (issue 17).
    const pendingRequests: PendingCounts = new Map();
    new client.Counter({
      name: 'switchboard_http_requests_total',
      help: 'HTTP requests by method, route and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
      collect() {
        flushPending(this, pendingRequests);
      },
    });
    const duration = new LightHistogram({ name: 'switchboard_http_request_duration_seconds', help: 'Time to the response headers, by method and route.', buckets: DURATION_BUCKETS_SECONDS });
    registry.registerMetric(duration as unknown as Histogram);
    new client.Gauge({ name: 'switchboard_mcp_sessions', help: '2025-era MCP sessions open.', registers: [registry], collect() { this.set(sources.sessions()); } });
    new client.Gauge({ name: 'switchboard_pool_clients', help: 'Per-user clients in the pool.', registers: [registry], collect() { this.set(sources.clients()); } });
    new client.Gauge({ name: 'switchboard_calls_in_flight', help: 'Tool calls running through the gateway.', registers: [registry], collect() { this.set(sources.callsInFlight()); } });
    registerAuditMetrics(client, registry, sources);
    new client.Counter({
      name: 'switchboard_limit_refusals_total',
      help: 'Sessions, streams and connections refused by a cap, by the option that refused (maxSessionsPerUser, maxListenStreams, maxConnections, …).',
      labelNames: ['limit'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [limit, count] of sources.limitRefusals?.() ?? []) this.inc({ limit }, count);
      },
    });
    new client.Gauge({ name: 'switchboard_start_time_seconds', help: 'When the gateway started (Unix time).', registers: [registry] }).set(Math.round(Date.now() / 1000));
    return new GatewayMetrics(registry, pendingRequests, duration, logger);
  }

  /** Counts one HTTP request. `route` is the route pattern, never the raw path. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    // Found by route, method and status (strings that keep their hash, a small number): no key string and no label closure per request (issue 17).
    const byMethod = innerMap(this.#requestSeries, route);
    let series = byMethod.get(method);
    if (series === undefined) {
      series = { duration: this.#duration.series(`${method} ${route}`, () => ({ method, route })), byStatus: new Map() };
      byMethod.set(method, series);
    }
    let count = series.byStatus.get(status);
    if (count === undefined) {
      count = pendingEntry(this.#pendingRequests, `${method} ${route} ${status}`, () => ({ method, route, status: String(status) }));
      series.byStatus.set(status, count);
    }
    count.count++;
    this.#duration.record(series.duration, seconds);
  }

  /** Registers a user's client series (once per underlying client: a registry edit replaces it). */
  attach(userClient: UserClient, user: string): void {
    const client = userClient.client;
    if (this.#attached.has(client)) return;
    this.#attached.add(client);
    client.prometheusRegistry({ registry: this.registry, labels: { user } }).catch((error: unknown) => this.#logger.warn('cannot register a client\'s metrics', { user, error: String(error) }));
  }

  /** The exposition for `viewer`: everything for an administrator, else only their own series. */
  async render(viewer: RegistryUser): Promise<string> {
    const text = await this.registry.metrics();
    return viewer.isAdmin ? text : onlyUser(text, viewer.name);
  }

  /** The content type of the exposition. */
  get contentType(): string {
    return this.registry.contentType;
  }
}

/**
 * The audit writer's series (no `user` label: administrators only): entries written, waiting, failed
 * inserts, and entries lost by reason (`full`: the buffer was full while the database was away;
 * `rejected`: the database refused them; `closed`: still unwritten at shutdown).
 */
function registerAuditMetrics(client: typeof import('prom-client'), registry: Registry, sources: GatewayGaugeSources): void {
  const read = (): AuditWriterStats | undefined => sources.audit?.();
  new client.Counter({ name: 'switchboard_audit_entries_written_total', help: 'Audit entries stored.', registers: [registry], collect() { this.reset(); this.inc(read()?.written ?? 0); } });
  new client.Gauge({ name: 'switchboard_audit_entries_buffered', help: 'Audit entries waiting to be written.', registers: [registry], collect() { this.set(read()?.buffered ?? 0); } });
  new client.Counter({ name: 'switchboard_audit_write_failures_total', help: 'Failed audit inserts (each retry counts).', registers: [registry], collect() { this.reset(); this.inc(read()?.writeFailures ?? 0); } });
  new client.Counter({
    name: 'switchboard_audit_entries_dropped_total',
    help: 'Audit entries lost, by reason (full: buffer full while the database was away; rejected: refused by the database; closed: unwritten at shutdown).',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      this.reset();
      const dropped = read()?.dropped ?? { full: 0, rejected: 0, closed: 0 };
      for (const [reason, count] of Object.entries(dropped)) this.inc({ reason }, count);
    },
  });
}

/** Keeps the samples labelled `user="<name>"` (and the HELP/TYPE lines of the metrics that have some). */
export function onlyUser(text: string, user: string): string {
  const kept: string[] = [];
  let pendingComments: string[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) {
      if (line.startsWith('# HELP')) pendingComments = [];
      pendingComments.push(line);
      continue;
    }
    if (line === '' || labelValue(line, 'user') !== user) continue;
    kept.push(...pendingComments, line);
    pendingComments = [];
  }
  return kept.length === 0 ? '' : `${kept.join('\n')}\n`;
}

/** The value of label `name` in a sample line (`metric{a="x",b="y"} 1`), unescaped; undefined without it. */
export function labelValue(line: string, name: string): string | undefined {
  const open = line.indexOf('{');
  if (open < 0) return undefined;
  let index = open + 1;
  while (index < line.length && line[index] !== '}') {
    const equals = line.indexOf('=', index);
    if (equals < 0 || line[equals + 1] !== '"') return undefined;
    const key = line.slice(index, equals).trim();
    let value = '';
    let cursor = equals + 2;
    for (; cursor < line.length && line[cursor] !== '"'; cursor++) {
      const char = line[cursor];
      if (char === '\\') {
        const next = line[++cursor];
        value += next === 'n' ? '\n' : (next ?? '');
      } else {
        value += char;
      }
    }
    if (key === name) return value;
    index = cursor + 1;
    if (line[index] === ',') index++;
  }
  return undefined;
}

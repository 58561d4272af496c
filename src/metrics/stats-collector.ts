/**
 * @module metrics/stats-collector
 * Per-server and per-tool counters, latency percentiles and a short timeline, fed by the client on
 * every call (plain counter updates: no events, no allocations on the hot path).
 */

import { LatencyWindow } from './latency-window.js';
import type { CallOutcome, CallRefusal, CallStats, ClientStats, ServerStats, TimelinePoint, ToolStats } from './stats-types.js';

export type { CallOutcome, CallRefusal, CallStats, ClientStats, ServerStats, TimelinePoint, ToolStats } from './stats-types.js';

/** Length of one timeline bucket. @default 10000 */
export const TIMELINE_BUCKET_MS = 10_000;
/** Buckets kept (10 minutes at the default bucket length). @default 60 */
export const TIMELINE_BUCKETS = 60;

interface Bucket {
  start: number;
  calls: number;
  errors: number;
  latency: LatencyWindow;
}

class Counters {
  calls = 0;
  ok = 0;
  refused = new Map<string, number>();
  toolErrors = 0;
  errors = new Map<string, number>();
  timeouts = 0;
  cancellations = 0;
  inFlight = 0;
  retries = 0;
  cacheHits = 0;
  cacheMisses = 0;
  readonly latency = new LatencyWindow();
  readonly buckets: Bucket[] = [];

  record(outcome: CallOutcome, now: number): void {
    this.calls++;
    if (outcome.ok) this.ok++;
    else if (outcome.isError) this.toolErrors++;
    if (outcome.errorCode !== undefined) {
      this.errors.set(outcome.errorCode, (this.errors.get(outcome.errorCode) ?? 0) + 1);
      if (outcome.errorCode === 'REQUEST_TIMEOUT') this.timeouts++;
      else if (outcome.errorCode === 'REQUEST_CANCELLED') this.cancellations++;
    }
    this.latency.record(outcome.durationMs);
    const bucket = this.#bucket(now);
    bucket.calls++;
    if (!outcome.ok) bucket.errors++;
    bucket.latency.record(outcome.durationMs);
  }

  /** A call that was never sent: it counts and it failed, but it has no latency. */
  refuse(code: string, now: number): void {
    this.calls++;
    this.refused.set(code, (this.refused.get(code) ?? 0) + 1);
    this.errors.set(code, (this.errors.get(code) ?? 0) + 1);
    const bucket = this.#bucket(now);
    bucket.calls++;
    bucket.errors++;
  }

  #bucket(now: number): Bucket {
    const start = now - (now % TIMELINE_BUCKET_MS);
    const last = this.buckets.at(-1);
    if (last !== undefined && last.start === start) return last;
    const bucket: Bucket = { start, calls: 0, errors: 0, latency: new LatencyWindow(128) };
    this.buckets.push(bucket);
    while (this.buckets.length > TIMELINE_BUCKETS) this.buckets.shift();
    return bucket;
  }

  snapshot(): CallStats {
    const failed = this.calls - this.ok;
    return {
      calls: this.calls,
      ok: this.ok,
      refused: Object.fromEntries(this.refused),
      toolErrors: this.toolErrors,
      errors: Object.fromEntries(this.errors),
      timeouts: this.timeouts,
      cancellations: this.cancellations,
      inFlight: this.inFlight,
      retries: this.retries,
      cacheHits: this.cacheHits,
      cacheMisses: this.cacheMisses,
      errorRate: this.calls === 0 ? 0 : failed / this.calls,
      latency: this.latency.summary(),
      timeline: this.buckets.map((bucket) => {
        const summary = bucket.latency.summary();
        return { start: bucket.start, calls: bucket.calls, errors: bucket.errors, p50: summary.p50, p95: summary.p95 };
      }),
    };
  }
}

/** Collects stats for one client. */
export class StatsCollector {
  readonly since: number;
  readonly #servers = new Map<string, { counters: Counters; tools: Map<string, Counters>; restarts: number }>();
  readonly #refused = new Map<string, number>();
  readonly #now: () => number;
  /** Called after each call is recorded (the Prometheus bridge listens here). */
  onCallEnded: ((outcome: CallOutcome) => void) | undefined;
  /** Called after each restart is recorded. */
  onRestart: ((server: string) => void) | undefined;
  /** Called after each refused call is recorded. */
  onCallRefused: ((refusal: CallRefusal) => void) | undefined;
  /** Called after each cache lookup is recorded. */
  onCacheLookup: ((server: string, tool: string, hit: boolean) => void) | undefined;

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.since = now();
  }

  callStarted(server: string, tool: string): void {
    const { counters, toolCounters } = this.#of(server, tool);
    counters.inFlight++;
    toolCounters.inFlight++;
  }

  callEnded(outcome: CallOutcome): void {
    const { counters, toolCounters } = this.#of(outcome.server, outcome.tool);
    counters.inFlight--;
    toolCounters.inFlight--;
    const now = this.#now();
    counters.record(outcome, now);
    toolCounters.record(outcome, now);
    this.onCallEnded?.(outcome);
  }

  /** Records a call refused before it was sent, under its server and tool where they are known. */
  callRefused(refusal: CallRefusal): void {
    this.#refused.set(refusal.code, (this.#refused.get(refusal.code) ?? 0) + 1);
    const now = this.#now();
    if (refusal.server !== undefined) {
      if (refusal.tool === undefined) this.#server(refusal.server).counters.refuse(refusal.code, now);
      else {
        const { counters, toolCounters } = this.#of(refusal.server, refusal.tool);
        counters.refuse(refusal.code, now);
        toolCounters.refuse(refusal.code, now);
      }
    }
    this.onCallRefused?.(refusal);
  }

  cacheLookup(server: string, tool: string, hit: boolean): void {
    const { counters, toolCounters } = this.#of(server, tool);
    if (hit) {
      counters.cacheHits++;
      toolCounters.cacheHits++;
    } else {
      counters.cacheMisses++;
      toolCounters.cacheMisses++;
    }
    this.onCacheLookup?.(server, tool, hit);
  }

  retried(server: string, tool: string): void {
    const { counters, toolCounters } = this.#of(server, tool);
    counters.retries++;
    toolCounters.retries++;
  }

  restarted(server: string): void {
    this.#server(server).restarts++;
    this.onRestart?.(server);
  }

  /** Drops a server's figures (it was removed from the configuration). */
  forget(server: string): void {
    this.#servers.delete(server);
  }

  /** Every server's stats; `states` gives each server's current state (and lists servers without calls). */
  snapshot(states: ReadonlyMap<string, string>): ClientStats {
    const names = new Set([...states.keys(), ...this.#servers.keys()]);
    const servers: ServerStats[] = [];
    for (const server of names) {
      const entry = this.#server(server);
      servers.push({
        server,
        state: states.get(server) ?? 'closed',
        restarts: entry.restarts,
        ...entry.counters.snapshot(),
        tools: [...entry.tools].map(([tool, counters]) => ({ server, tool, ...counters.snapshot() })),
      });
    }
    return { since: this.since, refused: Object.fromEntries(this.#refused), servers };
  }

  #server(server: string): { counters: Counters; tools: Map<string, Counters>; restarts: number } {
    let entry = this.#servers.get(server);
    if (entry === undefined) {
      entry = { counters: new Counters(), tools: new Map(), restarts: 0 };
      this.#servers.set(server, entry);
    }
    return entry;
  }

  #of(server: string, tool: string): { counters: Counters; toolCounters: Counters } {
    const entry = this.#server(server);
    let toolCounters = entry.tools.get(tool);
    if (toolCounters === undefined) {
      toolCounters = new Counters();
      entry.tools.set(tool, toolCounters);
    }
    return { counters: entry.counters, toolCounters };
  }
}

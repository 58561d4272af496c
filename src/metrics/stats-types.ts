/**
 * @module metrics/stats-types
 * The shapes of `client.stats()`: per-server and per-tool counters, latency percentiles and a short
 * timeline. Plain data (what `GET /api/stats` sends), apart from the collector that fills them.
 */

/** Percentiles of a window, in milliseconds. */
export interface LatencySummary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/** How one call ended. */
export interface CallOutcome {
  server: string;
  tool: string;
  durationMs: number;
  /** No exception and no `isError`. */
  ok: boolean;
  isError: boolean;
  errorCode?: string;
  cached?: boolean;
}

/**
 * A call refused before anything was sent (invalid arguments, no such tool, its server not up): what
 * is known of it. `server` and `tool` (the server's own tool name) are absent where no server or tool
 * could be named.
 */
export interface CallRefusal {
  server?: string;
  tool?: string;
  code: string;
}

/** One bucket of a timeline. */
export interface TimelinePoint {
  /** Start of the bucket (ms since epoch). */
  start: number;
  calls: number;
  errors: number;
  p50: number;
  p95: number;
}

/** Counters of a server or a tool. */
export interface CallStats {
  /** Every call, refused ones included. */
  calls: number;
  ok: number;
  /** Calls refused before anything was sent, by error code (also counted in `calls` and `errors`; no latency). */
  refused: Record<string, number>;
  /** Results with `isError: true`. */
  toolErrors: number;
  /** Failed calls by error code (timeouts and cancellations included). */
  errors: Record<string, number>;
  timeouts: number;
  cancellations: number;
  inFlight: number;
  retries: number;
  cacheHits: number;
  cacheMisses: number;
  /** Calls that did not end ok (tool errors and failures) over calls. */
  errorRate: number;
  latency: LatencySummary;
  timeline: TimelinePoint[];
}

/** A tool's stats. */
export interface ToolStats extends CallStats {
  server: string;
  tool: string;
}

/** A server's stats, with its tools. */
export interface ServerStats extends CallStats {
  server: string;
  state: string;
  restarts: number;
  tools: ToolStats[];
}

/** Everything `client.stats()` returns. */
export interface ClientStats {
  since: number;
  /** Every refused call by error code, including those no server could be named for (an unknown tool). */
  refused: Record<string, number>;
  servers: ServerStats[];
}

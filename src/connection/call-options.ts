/**
 * @module connection/call-options
 * The options of one request to a server: its deadline, cancellation and progress, and for
 * `tools/call` the request's `_meta` and the trace it belongs to.
 */

import type { ProgressUpdate } from './progress-update.js';
import type { TraceContext } from '../metrics/trace-context.js';

/** Options of one call. */
export interface CallOptions {
  signal?: AbortSignal;
  /** @default the server's `callTimeout` */
  timeoutMs?: number;
  /** Progress notifications of this call; each also restarts the deadline. */
  onProgress?: (progress: ProgressUpdate) => void;
  /** Keys added to the request's `_meta` (tools/call), e.g. the W3C trace context. */
  meta?: Record<string, unknown>;
  /** The trace the call belongs to (arrived with the caller's own request); continued to the server. */
  traceContext?: TraceContext;
}

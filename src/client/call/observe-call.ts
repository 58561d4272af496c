/**
 * @module client/call/observe-call
 * The outermost layer of a tool call: it counts the call in the stats, opens and ends its trace
 * span, and tells `tool-call-start` / `tool-call-end` (only when someone listens). A class, not
 * closures: one small object per call on the hot path.
 */

import type { Span } from '@opentelemetry/api';
import type { TraceContext } from '../../metrics/trace-context.js';
import type { SwitchboardError } from '../../errors.js';
import type { StatsCollector } from '../../metrics/stats-collector.js';
import { endToolSpan, startToolSpan } from '../../metrics/tracing.js';
import type { ToolResult } from '../../result/tool-result.js';
import type { CatalogTool } from '../catalog/catalog-items.js';
import type { ClientEventSink } from '../multi-server-client-events.js';
import { describeCallFailure } from './call-failure.js';

/** How a call ended. */
export interface CallEnd {
  ok: boolean;
  isError: boolean;
  errorCode?: string;
  cached?: boolean;
}

/** One observed call, from its start (at construction) to its one end. */
export class CallObservation {
  /** `performance.now()` at the start: the call's deadline runs from here. */
  readonly started: number;
  readonly #stats: StatsCollector;
  readonly #events: ClientEventSink;
  readonly #tool: CatalogTool;
  readonly #callId: number;
  /** The call's span (undefined when nothing traces here): its context goes to the server in `_meta`. */
  readonly span: Span | undefined;

  constructor(stats: StatsCollector, events: ClientEventSink, tool: CatalogTool, callId: number, traceContext?: TraceContext) {
    this.started = performance.now();
    this.#stats = stats;
    this.#events = events;
    this.#tool = tool;
    this.#callId = callId;
    stats.callStarted(tool.server, tool.originalName);
    this.span = startToolSpan(tool.name, tool.server, tool.originalName, traceContext);
    if (events.listenerCount('tool-call-start') > 0) events.emit('tool-call-start', { callId, name: tool.name, server: tool.server, originalName: tool.originalName });
  }

  /** The call ended with `outcome`. */
  end(outcome: CallEnd): void {
    const durationMs = performance.now() - this.started;
    const tool = this.#tool;
    // Fields named, not `...outcome`: one object of one shape per call.
    this.#stats.callEnded({ server: tool.server, tool: tool.originalName, durationMs, ok: outcome.ok, isError: outcome.isError, errorCode: outcome.errorCode, cached: outcome.cached });
    endToolSpan(this.span, outcome);
    if (this.#events.listenerCount('tool-call-end') > 0) this.#events.emit('tool-call-end', { callId: this.#callId, name: tool.name, server: tool.server, originalName: tool.originalName, durationMs, ...outcome });
  }

  /** The call returned `result` (a tool error, `isError`, is a result too). */
  succeeded(result: ToolResult): void {
    this.end({ ok: !result.isError, isError: result.isError });
  }

  /** The call failed: ends it and returns the failure described for a model to read. */
  failed(error: unknown, callerTimeoutMs: number | undefined): SwitchboardError {
    const described = describeCallFailure(error, this.#tool, callerTimeoutMs);
    this.end({ ok: false, isError: false, errorCode: described.code });
    return described;
  }
}

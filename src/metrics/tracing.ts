/**
 * @module metrics/tracing
 * OpenTelemetry spans for tool calls through `@opentelemetry/api`: a no-op unless the host app
 * registered an OpenTelemetry SDK. The API is loaded only once a global tracer provider exists, so
 * apps without OpenTelemetry pay nothing, not even the import.
 */

import type { Span, Tracer } from '@opentelemetry/api';
import { parseTraceparent, type TraceContext } from './trace-context.js';

type Api = typeof import('@opentelemetry/api');

// Where @opentelemetry/api keeps its globals (api major version 1).
const GLOBAL_KEY = Symbol.for('opentelemetry.js.api.1');

let tracer: Tracer | undefined;
let api: Api | undefined;
let loading: Promise<void> | undefined;

function registered(): boolean {
  const globals = (globalThis as Record<symbol, { trace?: unknown } | undefined>)[GLOBAL_KEY];
  return globals?.trace !== undefined;
}

/** The tracer, once an OpenTelemetry SDK is registered (loaded in the background on first need). */
export function currentTracer(): Tracer | undefined {
  if (tracer !== undefined) return tracer;
  if (!registered()) return undefined;
  loading ??= import('@opentelemetry/api').then((loaded) => {
    api = loaded;
    tracer = loaded.trace.getTracer('mcp-switchboard');
  });
  return undefined;
}

/** Loads the API now if a provider is registered (tests and apps that want the very first call traced). */
export async function prepareTracing(): Promise<void> {
  currentTracer();
  await loading;
}

/**
 * Starts a span for a tool call, or returns undefined when tracing is off. Its parent is the trace
 * context that arrived with the request (`incoming`, e.g. a gateway's downstream request), else the
 * caller's active span.
 */
export function startToolSpan(tool: string, server: string, originalName: string, incoming?: TraceContext): Span | undefined {
  const active = currentTracer();
  if (active === undefined || api === undefined) return undefined;
  const options = { attributes: { 'mcp.server': server, 'mcp.tool.name': originalName, 'mcp.tool.exposed_name': tool, 'rpc.system': 'mcp', 'rpc.method': 'tools/call' } };
  const remote = incoming === undefined ? undefined : parseTraceparent(incoming.traceparent);
  if (remote === undefined) return active.startSpan(`mcp.tools/call ${tool}`, options);
  let parentSpan = { ...remote, isRemote: true } as Parameters<Api['trace']['setSpanContext']>[1];
  if (incoming?.tracestate !== undefined) parentSpan = { ...parentSpan, traceState: api.createTraceState(incoming.tracestate) };
  return active.startSpan(`mcp.tools/call ${tool}`, options, api.trace.setSpanContext(api.context.active(), parentSpan));
}

/** Ends a span with the call's outcome. */
export function endToolSpan(span: Span | undefined, outcome: { ok: boolean; isError: boolean; errorCode?: string; cached?: boolean }): void {
  if (span === undefined) return;
  span.setAttribute('mcp.tool.is_error', outcome.isError);
  if (outcome.cached === true) span.setAttribute('mcp.cache.hit', true);
  if (outcome.errorCode !== undefined) {
    span.setAttribute('error.type', outcome.errorCode);
    // 2 = SpanStatusCode.ERROR (a literal avoids importing the enum).
    span.setStatus({ code: 2, message: outcome.errorCode });
  }
  span.end();
}

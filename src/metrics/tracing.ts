/**
 * @module metrics/tracing
 * OpenTelemetry spans for tool calls through `@opentelemetry/api`: a no-op unless the host app
 * registered an OpenTelemetry SDK. The API is loaded only once a global tracer provider exists, so
 * apps without OpenTelemetry pay nothing, not even the import.
 */

import type { Span, Tracer } from '@opentelemetry/api';

// Where @opentelemetry/api keeps its globals (api major version 1).
const GLOBAL_KEY = Symbol.for('opentelemetry.js.api.1');

let tracer: Tracer | undefined;
let loading: Promise<void> | undefined;

function registered(): boolean {
  const globals = (globalThis as Record<symbol, { trace?: unknown } | undefined>)[GLOBAL_KEY];
  return globals?.trace !== undefined;
}

/** The tracer, once an OpenTelemetry SDK is registered (loaded in the background on first need). */
export function currentTracer(): Tracer | undefined {
  if (tracer !== undefined) return tracer;
  if (!registered()) return undefined;
  loading ??= import('@opentelemetry/api').then((api) => {
    tracer = api.trace.getTracer('mcp-switchboard');
  });
  return undefined;
}

/** Loads the API now if a provider is registered (tests and apps that want the very first call traced). */
export async function prepareTracing(): Promise<void> {
  currentTracer();
  await loading;
}

/** Starts a span for a tool call, or returns undefined when tracing is off. */
export function startToolSpan(tool: string, server: string, originalName: string): Span | undefined {
  return currentTracer()?.startSpan(`mcp.tools/call ${tool}`, {
    attributes: { 'mcp.server': server, 'mcp.tool.name': originalName, 'mcp.tool.exposed_name': tool, 'rpc.system': 'mcp', 'rpc.method': 'tools/call' },
  });
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

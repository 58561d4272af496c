/**
 * @module metrics/trace-context
 * W3C Trace Context (`traceparent`, `tracestate`) and `baggage` in an MCP request's `_meta`, the
 * keys MCP's OpenTelemetry conventions use. Incoming values are checked before they are trusted (a
 * malformed `traceparent` is dropped whole, oversized `tracestate`/`baggage` too). Outgoing: the
 * call's own span when tracing is on (so the server's span is its child), else the caller's active
 * span, else the incoming context unchanged — a gateway that does not trace still passes the trace on.
 */

import type { Span } from '@opentelemetry/api';

/** The trace context of one request. */
export interface TraceContext {
  traceparent: string;
  tracestate?: string;
  baggage?: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
/** W3C limits: `tracestate` has at most 32 members (about 512 chars); baggage at most 8192 bytes. */
const MAX_TRACESTATE_CHARS = 512;
const MAX_BAGGAGE_CHARS = 8_192;

/** The parts of a valid `traceparent`, or undefined. */
export function parseTraceparent(value: unknown): { traceId: string; spanId: string; traceFlags: number } | undefined {
  if (typeof value !== 'string') return undefined;
  const match = TRACEPARENT.exec(value);
  if (match === null) return undefined;
  const [, version, traceId, spanId, flags, rest] = match;
  if (version === undefined || traceId === undefined || spanId === undefined || flags === undefined) return undefined;
  // Version ff is invalid; version 00 has no trailing fields; all-zero ids are invalid.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16) };
}

/** The trace context in a request's `_meta`, or undefined when it carries no valid one. */
export function traceContextFromMeta(meta: unknown): TraceContext | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const { traceparent, tracestate, baggage } = meta as Record<string, unknown>;
  if (parseTraceparent(traceparent) === undefined) return undefined;
  return {
    traceparent: traceparent as string,
    ...(typeof tracestate === 'string' && tracestate.length <= MAX_TRACESTATE_CHARS ? { tracestate } : {}),
    ...(typeof baggage === 'string' && baggage.length <= MAX_BAGGAGE_CHARS ? { baggage } : {}),
  };
}

/** The `_meta` keys for a request made under `span` (or continuing `incoming`), or undefined when there is no trace. */
export function traceMeta(span: Span | undefined, incoming: TraceContext | undefined): Record<string, string> | undefined {
  // A tracer the host registered is not ours to trust: a span without a context means no trace from it.
  const context = typeof span?.spanContext === 'function' ? span.spanContext() : undefined;
  if (context !== undefined && parseTraceparent(`00-${context.traceId}-${context.spanId}-01`) !== undefined) {
    const flags = (context.traceFlags & 0xff).toString(16).padStart(2, '0');
    const tracestate = context.traceState?.serialize() ?? incoming?.tracestate;
    return {
      traceparent: `00-${context.traceId}-${context.spanId}-${flags}`,
      ...(tracestate === undefined || tracestate === '' ? {} : { tracestate }),
      ...(incoming?.baggage === undefined ? {} : { baggage: incoming.baggage }),
    };
  }
  if (incoming === undefined) return undefined;
  return { ...incoming };
}

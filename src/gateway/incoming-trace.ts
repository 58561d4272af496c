/**
 * @module gateway/incoming-trace
 * The trace a downstream request belongs to: the W3C keys in its `_meta` (MCP's convention), else the
 * HTTP request's `traceparent`/`tracestate`/`baggage` headers. The gateway's call continues it (its
 * span a child of the caller's, or the context passed on unchanged when the gateway does not trace).
 */

import type { ServerContext } from '@modelcontextprotocol/server';
import { traceContextFromMeta, type TraceContext } from '../metrics/trace-context.js';

/** The incoming trace context of a request, or undefined. */
export function incomingTrace(ctx: ServerContext): TraceContext | undefined {
  const fromMeta = traceContextFromMeta(ctx.mcpReq._meta);
  if (fromMeta !== undefined) return fromMeta;
  const headers = ctx.http?.req?.headers;
  if (headers === undefined) return undefined;
  const traceparent = headers.get('traceparent');
  if (traceparent === null) return undefined;
  return traceContextFromMeta({ traceparent, tracestate: headers.get('tracestate') ?? undefined, baggage: headers.get('baggage') ?? undefined });
}

/**
 * @module client/call/trace-meta
 * The trace context a call carries to its server: the W3C keys in the request's `_meta`, from the
 * call's span (its child on the server side), or the trace that came with the caller's request when
 * tracing is off here (see metrics/trace-context). No trace, no keys: the request is unchanged.
 */

import type { Span } from '@opentelemetry/api';
import type { CallOptions } from '../../connection/server-connection.js';
import { traceMeta } from '../../metrics/trace-context.js';

/** `options` with the trace keys added to their `meta` (the same object when there is no trace). */
export function withTraceMeta(options: CallOptions, span: Span | undefined): CallOptions {
  if (span === undefined && options.traceContext === undefined) return options;
  const keys = traceMeta(span, options.traceContext);
  return keys === undefined ? options : { ...options, meta: { ...options.meta, ...keys } };
}

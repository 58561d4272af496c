/**
 * @module client/call/refused-call-event
 * The `tool-call-refused` event of a call refused before anything was sent: a call that ends as it
 * starts, with its error code. A separate event, not a `tool-call-end`, so that a listener pairing
 * starts with ends, or reading `server` of every end, sees what it always did.
 */

import type { CallRefusal } from '../../metrics/stats-collector.js';

/** Payload of `tool-call-refused`. */
export interface RefusedCallEvent {
  /** Unique among the client's calls (shared with `tool-call-start`/`tool-call-end`). */
  callId: number;
  /** The name called (the exposed name of the tool when it routed). */
  name: string;
  /** The server, where one is known (not for an unknown name). */
  server?: string;
  /** The tool's name on its server, where it is known. */
  originalName?: string;
  /** The refusal's error code (`INVALID_ARGUMENT`, `TOOL_NOT_FOUND`, `SERVER_DISCONNECTED`, …). */
  errorCode: string;
}

/** The event of `refusal`, for a call to `name`. */
export function refusedCallEvent(callId: number, name: string, refusal: CallRefusal): RefusedCallEvent {
  return {
    callId,
    name,
    ...(refusal.server === undefined ? {} : { server: refusal.server }),
    ...(refusal.tool === undefined ? {} : { originalName: refusal.tool }),
    errorCode: refusal.code,
  };
}

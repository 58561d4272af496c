/**
 * @module connection/limited-fetch
 * A fetch for the HTTP transports whose answers are bounded: an SSE stream may run for hours, but no
 * event of it may pass {@link MAX_HTTP_MESSAGE_BYTES}, and neither may a JSON body.
 * Without a bound, a server that answers with a line that never ends grew the process by gigabytes until
 * V8 aborted it — in a gateway, one tenant's server taking down every user's calls. Past the bound the
 * connection to the server is dropped and the requests of that POST fail at once with a clear
 * SERVER_REQUEST_FAILED: an event stream ends with a JSON-RPC error for each of them (the SDK transport
 * only reports a broken stream, so the call used to wait for its deadline), a JSON body errors (its
 * send fails the request). A stream that carries no request of its own (a GET: the legacy SSE
 * transport's one stream) is ended with an error and reported to `onStreamCut`, whose owner can end
 * the session: its answers were on that stream.
 */

import type { FetchLike } from '@modelcontextprotocol/client';
import { ErrorCode, SwitchboardError } from '../errors.js';
import { SseEventBytes } from './sse-event-bytes.js';

/** Longest event of an SSE answer, and longest JSON answer, from an HTTP server. @default 32 MiB */
export const MAX_HTTP_MESSAGE_BYTES = 32 * 1024 * 1024;

/** JSON-RPC's internal error: the failure is on the way, not in the server's handler. */
const INTERNAL_ERROR = -32603;

/** Options of {@link limitedFetch}. */
export interface LimitedFetchOptions {
  /** The bound. @default MAX_HTTP_MESSAGE_BYTES */
  maxBytes?: number;
  /** Told what was too large (`more than 32 MiB in one event of its event stream`) when a stream without a request of its own is cut. */
  onStreamCut?: (what: string) => void;
}

/** `fetch` with every answer's body bounded as above (`server` names the server in the error). */
export function limitedFetch(fetch: FetchLike, server: string, options: LimitedFetchOptions = {}): FetchLike {
  const { maxBytes = MAX_HTTP_MESSAGE_BYTES, onStreamCut } = options;
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.body === null) return response;
    // A JSON body counts whole (it may be pretty-printed); an event stream event by event.
    const events = (response.headers.get('content-type') ?? '').toLowerCase().includes('text/event-stream') ? new SseEventBytes() : undefined;
    let whole = 0;
    const bounded = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          const size = events === undefined ? (whole += chunk.length) : events.add(chunk);
          if (size > maxBytes) {
            const what = `more than ${sizeText(maxBytes)} ${events === undefined ? 'in one answer' : 'in one event of its event stream'}`;
            const ids = events === undefined ? [] : requestIdsOf(init?.body);
            if (ids.length === 0) {
              if (events !== undefined) onStreamCut?.(what);
              controller.error(new SwitchboardError(ErrorCode.ServerRequestFailed, `server "${server}" sent ${what}: the answer was dropped`, { server, hint: HINT }));
              return;
            }
            // The blank line ends the cut event (its data does not parse and is dropped); then each request is answered with why.
            controller.enqueue(new TextEncoder().encode(`\n\n${ids.map((id) => cutAnswer(id, what)).join('')}`));
            controller.terminate();
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(bounded, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

const HINT = 'a server answers a request with less than that; check the server';

/** `32 MiB` for a whole number of MiB, else bytes. */
function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/** An SSE event answering request `id` with the JSON-RPC error of a cut answer. */
function cutAnswer(id: string | number, what: string): string {
  const error = { code: INTERNAL_ERROR, message: `the answer had ${what} and was dropped; ${HINT}` };
  return `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, error })}\n\n`;
}

/** The ids of the JSON-RPC requests in a POST body (one request or a batch); none for a GET or anything else. */
function requestIdsOf(body: unknown): (string | number)[] {
  if (typeof body !== 'string') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const ids: (string | number)[] = [];
  for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
    const { id, method } = (typeof item === 'object' && item !== null ? item : {}) as { id?: unknown; method?: unknown };
    if (typeof method === 'string' && (typeof id === 'string' || typeof id === 'number')) ids.push(id);
  }
  return ids;
}

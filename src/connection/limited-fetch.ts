/**
 * @module connection/limited-fetch
 * A fetch for the HTTP transports whose answers are bounded: an SSE stream may run for hours, but no
 * line of it (one event's `data:`) may pass {@link MAX_HTTP_MESSAGE_BYTES}, and neither may a JSON body.
 * Without a bound, a server that answers with a line that never ends grew the process by gigabytes until
 * V8 aborted it — in a gateway, one tenant's server taking down every user's calls. Past the bound the
 * answer's stream errors with a clear SERVER_REQUEST_FAILED and the connection to the server is dropped.
 */

import type { FetchLike } from '@modelcontextprotocol/client';
import { ErrorCode, SwitchboardError } from '../errors.js';

/** Longest line of an SSE answer, and longest JSON answer, from an HTTP server. @default 32 MiB */
export const MAX_HTTP_MESSAGE_BYTES = 32 * 1024 * 1024;

const LINE_FEED = 0x0a;

/** `fetch` with every answer's body bounded as above (`server` names the server in the error). */
export function limitedFetch(fetch: FetchLike, server: string, maxBytes: number = MAX_HTTP_MESSAGE_BYTES): FetchLike {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.body === null) return response;
    // A JSON body counts whole (it may be pretty-printed); an event stream line by line.
    const perLine = (response.headers.get('content-type') ?? '').toLowerCase().includes('text/event-stream');
    let since = 0;
    const bounded = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          const lastLineFeed = perLine ? chunk.lastIndexOf(LINE_FEED) : -1;
          since = lastLineFeed === -1 ? since + chunk.length : chunk.length - lastLineFeed - 1;
          if (since > maxBytes) {
            controller.error(new SwitchboardError(ErrorCode.ServerRequestFailed, `server "${server}" sent more than ${maxBytes} bytes ${perLine ? 'in one line of its event stream' : 'in one answer'}: the answer was dropped`, { server, hint: 'a server answers a request with less than that; check the server' }));
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(bounded, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

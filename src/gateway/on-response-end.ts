/**
 * @module gateway/on-response-end
 * Knowing when an HTTP exchange is really over: a JSON answer is over when it is returned, a stream
 * (SSE) only when its body has been read to the end or the client went away. The gateway releases a
 * request's client lease and counts a session idle at that moment, not before.
 */

/** True when the response is a stream that outlives the handler (`text/event-stream`). */
export function isStreaming(response: Response): boolean {
  return response.body !== null && (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
}

/**
 * Registers a callback for when the HTTP exchange is over. Served by `@hono/node-server`, it is the
 * Node response's `close` event (free); in process (`app.request()`) the body is watched instead.
 */
export type ExchangeEndHook = (done: () => void) => void;

/**
 * Calls `done` once the exchange is over; returns the response to send (its body wrapped when it
 * streams and no `hook` is given).
 */
export function onResponseEnd(response: Response, done: () => void, hook?: ExchangeEndHook): Response {
  if (hook !== undefined && isStreaming(response)) {
    hook(done);
    return response;
  }
  if (!isStreaming(response) || response.body === null) {
    done();
    return response;
  }
  let finished = false;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    done();
  };
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          controller.close();
          finish();
        } else {
          controller.enqueue(chunk.value);
        }
      } catch (error) {
        controller.error(error);
        finish();
      }
    },
    async cancel(reason) {
      finish();
      await reader.cancel(reason).catch(() => {});
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * @module connection/request-streams
 * One abort signal per outbound request on a transport that opens a response stream per request
 * (Streamable HTTP). The SDK aborts that stream itself only on a 2026-07-28 session; on a 2025
 * session a timed-out or cancelled request only POSTs `notifications/cancelled`, and the stream of
 * an upstream that never ends its answer keeps its socket forever (issue 14, finding 3). Here the
 * stream is aborted when its request is cancelled, and also shortly after its response arrived
 * (a well-behaved server has ended it by then, so the abort is a no-op and the socket goes back
 * to the pool; a server that keeps it open loses it).
 */

import type { JSONRPCMessage, TransportSendOptions } from '@modelcontextprotocol/client';

/** How long a response stream may stay open after its response: the server should have ended it. */
export const RESPONSE_STREAM_LINGER_MS = 2_000;

type RequestId = string | number;

/** The per-request abort signals of one transport. */
export class RequestStreams {
  readonly #open = new Map<RequestId, AbortController>();
  readonly #lingering = new Set<NodeJS.Timeout>();

  /** Streams open now (requests sent whose stream was not aborted yet). */
  get size(): number {
    return this.#open.size;
  }

  /**
   * The send options of an outbound message: a request gets its own `requestSignal` (joined to
   * the SDK's, if it passed one). A `notifications/cancelled` aborts the stream of its request.
   */
  outbound(message: JSONRPCMessage, options: TransportSendOptions | undefined): TransportSendOptions | undefined {
    const record = message as { id?: unknown; method?: unknown; params?: { requestId?: unknown } };
    if (typeof record.method !== 'string') return options;
    if (record.id === undefined) {
      if (record.method === 'notifications/cancelled') this.#abortSoon(record.params?.requestId);
      return options;
    }
    if (!isRequestId(record.id)) return options;
    const controller = new AbortController();
    this.#open.get(record.id)?.abort();
    this.#open.set(record.id, controller);
    const theirs = options?.requestSignal;
    const signal = theirs === undefined ? controller.signal : AbortSignal.any([theirs, controller.signal]);
    // However it ends (the SDK aborts its own signal on a 2026-07-28 cancel), the entry goes.
    const id = record.id;
    signal.addEventListener('abort', () => this.#forget(id, controller), { once: true });
    return { ...options, requestSignal: signal };
  }

  /** An inbound response ends its request: its stream is aborted if still open after the linger. */
  inbound(message: JSONRPCMessage): void {
    const record = message as { id?: unknown; method?: unknown };
    if (record.method !== undefined || !isRequestId(record.id)) return;
    const id = record.id;
    if (!this.#open.has(id)) return;
    const timer = setTimeout(() => {
      this.#lingering.delete(timer);
      this.#abort(id);
    }, RESPONSE_STREAM_LINGER_MS);
    timer.unref();
    this.#lingering.add(timer);
  }

  /** The transport closed: every stream goes with it. */
  close(): void {
    for (const timer of this.#lingering) clearTimeout(timer);
    this.#lingering.clear();
    for (const controller of this.#open.values()) controller.abort();
    this.#open.clear();
  }

  /**
   * Aborts after the current task, so the `notifications/cancelled` being sent leaves first (and a
   * server that watches it sees the cancellation before the disconnect).
   */
  #abortSoon(id: unknown): void {
    if (isRequestId(id) && this.#open.has(id)) setImmediate(() => this.#abort(id));
  }

  #forget(id: RequestId, controller: AbortController): void {
    if (this.#open.get(id) === controller) this.#open.delete(id);
  }

  #abort(id: RequestId): void {
    const controller = this.#open.get(id);
    if (controller === undefined) return;
    this.#open.delete(id);
    controller.abort();
  }
}

function isRequestId(id: unknown): id is RequestId {
  return typeof id === 'string' || typeof id === 'number';
}

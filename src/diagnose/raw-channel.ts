/**
 * @module diagnose/raw-channel
 * Plain JSON-RPC over an SDK `Transport`, for the doctor: every step of the handshake is sent by hand
 * so that each one can be timed and its failure named.
 *
 * Not the {@link LeanRequester}: the doctor times a request's two phases apart (`sent`: the transport
 * took it, for HTTP the POST was answered; `answered`: the result), names failures by step with its
 * own error types instead of server-prefixed SwitchboardErrors, sends no `notifications/cancelled`
 * on a deadline, and uses numeric ids, so its `--debug` trace shows the plain handshake. The
 * transport under it already decodes the byte stream, so there is no line decoder to share.
 */

import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { MessageTrace } from '../connection/message-trace.js';
import { RpcError } from '../to-switchboard-error.js';

// The one JSON-RPC error class (the lean path's too); re-exported for the doctor.
export { RpcError };

/** No answer within the deadline. */
export class NoAnswerError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = 'NoAnswerError';
  }
}

/** The transport closed while waiting. */
export class ChannelClosedError extends Error {
  constructor() {
    super('the connection closed');
    this.name = 'ChannelClosedError';
  }
}

/** Requests and notifications over a started transport. */
export class RawChannel {
  readonly transport: Transport;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  readonly #trace: MessageTrace | undefined;
  #nextId = 0;
  #closed = false;
  #received = 0;
  readonly #closedWaiters = new Set<() => void>();

  constructor(transport: Transport, trace?: MessageTrace) {
    this.transport = transport;
    this.#trace = trace;
    transport.onmessage = (message) => {
      this.#received++;
      this.#trace?.('in', message);
      this.#onMessage(message);
    };
    transport.onclose = () => {
      this.#closed = true;
      for (const { reject } of this.#pending.values()) reject(new ChannelClosedError());
      this.#pending.clear();
      for (const waiter of this.#closedWaiters) waiter();
    };
    transport.onerror = () => {};
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Whether the peer has sent anything at all. */
  get hasReceived(): boolean {
    return this.#received > 0;
  }

  /** Resolves true if the transport closes within `ms`, else false. */
  closesWithin(ms: number): Promise<boolean> {
    if (this.#closed) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#closedWaiters.delete(done);
        resolve(false);
      }, ms);
      const done = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      this.#closedWaiters.add(done);
    });
  }

  /** Sends a request; rejects with RpcError, NoAnswerError, ChannelClosedError or the send error. */
  async request(method: string, params: Record<string, unknown> | undefined, timeoutMs: number): Promise<unknown> {
    const { sent, answered } = this.send(method, params, timeoutMs);
    await sent;
    return answered;
  }

  /**
   * Sends a request and returns its two phases: `sent` settles when the transport accepted it (for
   * HTTP, when the POST was answered), `answered` with the JSON-RPC result.
   */
  send(method: string, params: Record<string, unknown> | undefined, timeoutMs: number): { sent: Promise<void>; answered: Promise<unknown> } {
    if (this.#closed) {
      const closed = Promise.reject(new ChannelClosedError());
      closed.catch(() => {});
      return { sent: closed, answered: closed };
    }
    const id = ++this.#nextId;
    let timer: NodeJS.Timeout | undefined;
    const answered = new Promise<unknown>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new NoAnswerError(timeoutMs));
      }, timeoutMs);
    }).finally(() => {
      clearTimeout(timer);
      this.#pending.delete(id);
    });
    answered.catch(() => {});
    const sent = this.#send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) } as JSONRPCMessage);
    sent.catch((error: unknown) => {
      const pending = this.#pending.get(id);
      this.#pending.delete(id);
      pending?.reject(error instanceof Error ? error : new Error(String(error)));
    });
    return { sent, answered };
  }

  /** Sends a notification. */
  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    return this.#send({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) } as JSONRPCMessage);
  }

  #send(message: JSONRPCMessage): Promise<void> {
    this.#trace?.('out', message);
    return this.transport.send(message);
  }

  #onMessage(message: JSONRPCMessage): void {
    const record = message as { id?: unknown; method?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } };
    if (record.method !== undefined && record.id !== undefined) {
      // A request from the server (ping, roots/list, …): answer so it does not wait on us.
      const reply =
        record.method === 'ping'
          ? { jsonrpc: '2.0', id: record.id, result: {} }
          : { jsonrpc: '2.0', id: record.id, error: { code: -32601, message: 'not supported by switchboard doctor' } };
      this.#send(reply as JSONRPCMessage).catch(() => {});
      return;
    }
    if (typeof record.id !== 'number') return;
    const pending = this.#pending.get(record.id);
    if (pending === undefined) return;
    this.#pending.delete(record.id);
    if (record.error !== undefined) {
      pending.reject(new RpcError(Number(record.error.code), String(record.error.message), record.error.data));
    } else {
      pending.resolve(record.result);
    }
  }
}

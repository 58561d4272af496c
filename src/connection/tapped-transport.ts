/**
 * @module connection/tapped-transport
 * A `Transport` that wraps another and lets {@link ServerConnection} see messages before the SDK does:
 * responses to its own direct requests (the lean `tools/call` path) are taken out, and in debug mode
 * every message in and out is traced. The SDK's Protocol talks to this wrapper exactly as it would to
 * the inner transport.
 */

import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { RequestStreams } from './request-streams.js';
import type { StdioProcessTransport } from './stdio-process-transport.js';

/** Hooks of a {@link TappedTransport}. */
export interface TransportTap {
  /** Sees every inbound message first; returns true when it consumed it. */
  intercept?: (message: JSONRPCMessage) => boolean;
  /** Called with every message in both directions (debug tracing). */
  trace?: (direction: 'in' | 'out', message: JSONRPCMessage) => void;
  /** Called when the inner transport closes, before the SDK hears of it. */
  closed?: (transport: TappedTransport) => void;
}

/** Wraps a transport; forwards everything the SDK relies on (session id, protocol version header). */
export class TappedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  readonly inner: Transport;
  readonly #tap: TransportTap;
  /** Per-request response streams (Streamable HTTP), aborted when their request is done with. */
  readonly #streams: RequestStreams | undefined;

  constructor(inner: Transport, tap: TransportTap) {
    this.inner = inner;
    this.#tap = tap;
    this.#streams = inner.hasPerRequestStream === true ? new RequestStreams() : undefined;
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  get hasPerRequestStream(): boolean | undefined {
    return this.inner.hasPerRequestStream;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }

  start(): Promise<void> {
    const { intercept, trace, closed } = this.#tap;
    this.inner.onmessage = (message, extra) => {
      if (trace !== undefined) trace('in', message);
      this.#streams?.inbound(message);
      if (intercept !== undefined && intercept(message)) return;
      // The SDK hands notifications to their handlers a microtask later but settles responses at
      // once, so a progress notification read just before its request's response would find the
      // request gone. A response waits one microtask too, behind what arrived before it.
      if ((message as { method?: unknown }).method === undefined && (message as { id?: unknown }).id !== undefined) {
        queueMicrotask(() => this.onmessage?.(message, extra));
        return;
      }
      this.onmessage?.(message, extra);
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => {
      this.#streams?.close();
      try {
        closed?.(this);
      } finally {
        this.onclose?.();
      }
    };
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.#tap.trace?.('out', message);
    return this.inner.send(message, this.#streams === undefined ? options : this.#streams.outbound(message, options));
  }

  /** A request of the lean requester (see its `SendMessage`); through {@link send} unless a subclass writes it faster. */
  sendRequest(message: JSONRPCMessage, _lone: boolean): Promise<void> | void {
    return this.send(message);
  }

  /** True when every message is traced (debug): then each goes through {@link send}. */
  protected get traced(): boolean {
    return this.#tap.trace !== undefined;
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** A tapped stdio transport keeps `stderr` and `pid` visible: that is how the SDK recognises stdio. */
export class TappedStdioTransport extends TappedTransport {
  readonly #stdio: StdioProcessTransport;

  constructor(inner: StdioProcessTransport, tap: TransportTap) {
    super(inner, tap);
    this.#stdio = inner;
  }

  /** Untraced, a request is written at once, without a promise (see `StdioProcessTransport.sendNow`). */
  override sendRequest(message: JSONRPCMessage, lone: boolean): Promise<void> | void {
    if (this.traced) return this.send(message);
    this.#stdio.sendNow(message, lone);
  }

  get stderr(): unknown {
    return this.#stdio.stderr;
  }

  get pid(): number | undefined {
    return this.#stdio.pid;
  }
}

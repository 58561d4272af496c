/**
 * @module connection/session/lean-session
 * The SDK-free session ({@link LeanClient}): stdio, the 2025 era, no server→client requests but
 * ping. Its requester carries the handshake too, so it takes responses from the first message.
 */

import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type { SwitchboardError } from '../../errors.js';
import { LeanClient } from '../lean-client.js';
import type { LeanRequester, SendMessage } from '../lean-requester.js';
import type { ServerInfo } from '../mcp-types.js';
import type { TappedTransport } from '../tapped-transport.js';
import { mapRpcError } from './map-rpc-error.js';
import type { McpSession, SessionRequestOptions, SessionSink, ToolCallParams } from './mcp-session.js';

/** Options of a {@link LeanSession}. */
export interface LeanSessionOptions {
  serverName: string;
  clientInfo: { name: string; version: string };
  /** Declared in `initialize` (see client-capabilities). */
  capabilities: Record<string, Record<string, unknown>>;
  /** Writes a message without a promise (the stdio fast path); default: the transport's `send`. */
  send?: SendMessage;
  sink: SessionSink;
}

/** A session on the {@link LeanClient}. */
export class LeanSession implements McpSession {
  readonly #client: LeanClient;
  /** The client's requester, held directly: it is on the per-call and per-message path. */
  readonly #requester: LeanRequester;

  constructor(options: LeanSessionOptions) {
    const { serverName, sink } = options;
    this.#client = new LeanClient({
      clientInfo: options.clientInfo,
      capabilities: options.capabilities,
      serverName,
      ...(options.send === undefined ? {} : { send: options.send }),
      onRpcError: (error, method) => mapRpcError(error, serverName, method),
      onNotification: (method, params) => dispatchNotification(method, params, sink),
      onError: (error) => sink.protocolError(error),
    });
    this.#requester = this.#client.requester;
  }

  connect(transport: TappedTransport, options: { signal: AbortSignal; timeoutMs: number }): Promise<void> {
    return this.#client.connect(transport, { signal: options.signal, timeout: options.timeoutMs });
  }

  get protocolVersion(): string | undefined {
    return this.#client.getNegotiatedProtocolVersion();
  }

  get protocolEra(): 'legacy' | undefined {
    return this.#client.getProtocolEra();
  }

  get serverInfo(): ServerInfo | undefined {
    return this.#client.getServerVersion() as ServerInfo | undefined;
  }

  get capabilities(): Record<string, unknown> | undefined {
    return this.#client.getServerCapabilities();
  }

  get instructions(): string | undefined {
    return this.#client.getInstructions();
  }

  request(method: string, params: Record<string, unknown> | undefined, options: SessionRequestOptions): Promise<unknown> {
    return this.#requester.request(method, params, options);
  }

  callTool(params: ToolCallParams, options: SessionRequestOptions): Promise<unknown> {
    return this.#requester.request('tools/call', params as unknown as Record<string, unknown>, options);
  }

  ownToolList(_options: SessionRequestOptions): undefined {
    return undefined;
  }

  intercept(message: JSONRPCMessage): boolean {
    return this.#requester.intercept(message);
  }

  failRequests(error: SwitchboardError): void {
    this.#requester.close(error);
  }

  close(): Promise<void> {
    return this.#client.close();
  }
}

/** Notifications on the lean session, checked as the SDK's handlers would see them. */
function dispatchNotification(method: string, params: Record<string, unknown>, sink: SessionSink): void {
  switch (method) {
    case 'notifications/tools/list_changed':
      sink.listChanged('tools');
      break;
    case 'notifications/prompts/list_changed':
      sink.listChanged('prompts');
      break;
    case 'notifications/resources/list_changed':
      sink.listChanged('resources');
      break;
    case 'notifications/resources/updated':
      if (typeof params.uri === 'string') sink.resourceUpdated(params.uri);
      break;
    case 'notifications/message':
      if (typeof params.level === 'string') sink.log(params.level, typeof params.logger === 'string' ? params.logger : undefined, params.data);
      break;
  }
}

/**
 * @module gateway/legacy-session
 * A 2025-era client's session: the SDK's sessionful Streamable HTTP transport and one aggregated
 * server for its lifetime, bound to the user who opened it. The session holds a lease on the user's
 * client, so the pool keeps that client (and its upstream sessions) while the session lives; it ends
 * with the client's `DELETE`, when the user is removed, when it has been idle too long, or at shutdown.
 */

import { WebStandardStreamableHTTPServerTransport, type Server } from '@modelcontextprotocol/server';
import type { ClientLease, UserClient } from '../pool/index.js';
import { createAggregatedServer } from './aggregated-server.js';
import { newDownstreamSession, type DownstreamSession } from './downstream-session.js';
import { isStreaming, type ExchangeEndHook } from './on-response-end.js';
import type { UserEndpoint } from './user-endpoint.js';

/** Callbacks of a {@link LegacySession}. */
export interface LegacySessionHooks {
  /** The client completed `initialize`: the session exists from now on. */
  onInitialized(session: LegacySession): void;
  /** The session ended (called once). */
  onClosed(session: LegacySession): void;
  /** The client ended the session with `DELETE` (before {@link onClosed}): it ends on every replica. */
  onDeleted?(session: LegacySession): Promise<void> | void;
}

/** One 2025-era session. */
export class LegacySession {
  readonly id: string;
  readonly userId: string;
  readonly record: DownstreamSession;
  readonly #transport: WebStandardStreamableHTTPServerTransport;
  readonly #server: Server;
  readonly #endpoint: UserEndpoint;
  readonly #lease: ClientLease;
  readonly #hooks: LegacySessionHooks;
  #active = 0;
  #lastActive = Date.now();
  #closing: Promise<void> | undefined;

  private constructor(id: string, endpoint: UserEndpoint, lease: ClientLease, maxBodyBytes: number, hooks: LegacySessionHooks) {
    this.id = id;
    this.userId = endpoint.user.id;
    this.#endpoint = endpoint;
    this.#lease = lease;
    this.#hooks = hooks;
    this.record = newDownstreamSession(this.id, 'legacy');
    this.#transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => this.id,
      onsessioninitialized: () => hooks.onInitialized(this),
      // Awaited by the transport: the DELETE is answered once every replica will refuse the id.
      onsessionclosed: async () => {
        try {
          await hooks.onDeleted?.(this);
        } finally {
          void this.close();
        }
      },
      maxRequestBodySize: maxBodyBytes,
    });
    this.#server = createAggregatedServer({ host: endpoint, era: 'legacy', session: this.record });
    this.#server.onclose = () => void this.close();
  }

  /** Opens a session `id` for the user of `endpoint` and serves its first request (`initialize`). */
  static async open(
    id: string,
    endpoint: UserEndpoint,
    lease: ClientLease,
    request: Request,
    onEnd: ExchangeEndHook,
    parsedBody: { value: unknown } | undefined,
    maxBodyBytes: number,
    hooks: LegacySessionHooks,
  ): Promise<Response> {
    const session = new LegacySession(id, endpoint, lease, maxBodyBytes, hooks);
    try {
      await session.#server.connect(session.#transport);
      endpoint.attach(session.record);
      const response = await session.handle(request, onEnd, parsedBody);
      // Anything but a successful initialize leaves no session behind.
      if (session.#transport.sessionId === undefined) await session.close();
      return response;
    } catch (error) {
      await session.close();
      throw error;
    }
  }

  /**
   * Resumes here a session another replica opened (its id carried what `initialize` said): the
   * handshake is replayed into a fresh transport and server, so both are where the client left them.
   * Resolves to the session, initialized, or undefined when the replayed handshake was refused.
   */
  static async resume(id: string, endpoint: UserEndpoint, lease: ClientLease, handshake: { protocolVersion: string; capabilities: Record<string, unknown>; clientInfo: Record<string, unknown> }, maxBodyBytes: number, hooks: LegacySessionHooks): Promise<LegacySession | undefined> {
    const session = new LegacySession(id, endpoint, lease, maxBodyBytes, hooks);
    try {
      await session.#server.connect(session.#transport);
      endpoint.attach(session.record);
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: handshake };
      const answer = await session.#transport.handleRequest(new Request('http://replica/mcp', { method: 'POST', headers, body: JSON.stringify(initialize) }), { parsedBody: initialize });
      await answer.body?.cancel();
      if (session.#transport.sessionId !== id) {
        await session.close();
        return undefined;
      }
      const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
      const sessionHeaders = { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': handshake.protocolVersion };
      await session.#transport.handleRequest(new Request('http://replica/mcp', { method: 'POST', headers: sessionHeaders, body: JSON.stringify(initialized) }), { parsedBody: initialized });
      return session;
    } catch (error) {
      await session.close();
      throw error;
    }
  }

  /** The server instance of this session. */
  get server(): Server {
    return this.#server;
  }

  /** The user's client, or undefined while it is not available. */
  client(): UserClient | undefined {
    try {
      return this.#endpoint.client();
    } catch {
      return undefined;
    }
  }

  /** An exchange served outside the transport (the fast path) begins: the session is not idle until the returned function is called. */
  exchange(): () => void {
    this.#active++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#exchangeEnded();
    };
  }

  /** Milliseconds since the last exchange ended; 0 while one is open (a call, the GET stream). */
  idleMs(now: number = Date.now()): number {
    return this.#active > 0 ? 0 : now - this.#lastActive;
  }

  /** Serves one request of this session; `onEnd` says when a streamed answer is over. */
  async handle(request: Request, onEnd: ExchangeEndHook, parsedBody?: { value: unknown }): Promise<Response> {
    this.#active++;
    let response: Response;
    try {
      response = await this.#transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody: parsedBody.value });
    } catch (error) {
      this.#exchangeEnded();
      throw error;
    }
    if (isStreaming(response)) onEnd(() => this.#exchangeEnded());
    else this.#exchangeEnded();
    return response;
  }

  /** Ends the session: its streams close, its subscriptions go, its lease is released. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#hooks.onClosed(this);
      try {
        await this.#endpoint.detach(this.record);
        await this.#server.close().catch(() => {});
      } finally {
        this.#lease.release();
      }
    })();
    return this.#closing;
  }

  #exchangeEnded(): void {
    this.#active--;
    this.#lastActive = Date.now();
  }
}

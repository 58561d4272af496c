/**
 * @module gateway/mcp-endpoint
 * `/mcp`: one URL for both protocol eras, per authenticated user.
 * - A request carrying `Mcp-Session-Id` belongs to a 2025-era session; the session must exist (404)
 *   and be the requester's (403).
 * - A 2025-era request without one (the SDK's `isLegacyRequest`) may only open a session with
 *   `initialize`.
 * - Everything else is 2026-07-28 traffic, served statelessly by the user's own handler
 *   (`createMcpHandler(…, { legacy: 'reject' })`), with a lease on the user's client held until the
 *   response (an SSE stream, for `subscriptions/listen` or a call with progress) has ended.
 */

import { isLegacyRequest } from '@modelcontextprotocol/server';
import { ErrorCode, SwitchboardError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ClientLease, EvictionReason } from '../registry/client-pool.js';
import type { RegistryUser } from '../registry/registry-types.js';
import type { UserClient } from '../registry/user-client.js';
import type { CallTracker } from './call-tracker.js';
import { mcpErrorResponse } from './http-error.js';
import { LegacySession } from './legacy-session.js';
import { onResponseEnd } from './on-response-end.js';
import { UserEndpoint } from './user-endpoint.js';

/** Options of an {@link McpEndpoint}. */
export interface McpEndpointOptions {
  /** A lease on the user's client (the gateway's, which also attaches metrics). */
  lease(user: RegistryUser): Promise<ClientLease>;
  tracker: CallTracker;
  logger: Logger;
  maxBodyBytes: number;
  sessionIdleTtlMs: number;
  /** Called when an endpoint starts using a client. */
  onClient?: (client: UserClient, user: RegistryUser) => void;
}

/** The `/mcp` endpoint. */
export class McpEndpoint {
  readonly #options: McpEndpointOptions;
  readonly #users = new Map<string, UserEndpoint>();
  readonly #sessions = new Map<string, LegacySession>();
  readonly #sweep: NodeJS.Timeout;
  #closing: Promise<void> | undefined;

  constructor(options: McpEndpointOptions) {
    this.#options = options;
    this.#sweep = setInterval(() => this.closeIdleSessions(), Math.max(1_000, Math.min(60_000, options.sessionIdleTtlMs / 2)));
    this.#sweep.unref();
  }

  /** 2025-era sessions open now. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** The MCP side of `user` (created on first use). */
  endpointOf(user: RegistryUser): UserEndpoint {
    let endpoint = this.#users.get(user.id);
    if (endpoint === undefined) {
      endpoint = new UserEndpoint(user, {
        tracker: this.#options.tracker,
        logger: this.#options.logger,
        maxBodyBytes: this.#options.maxBodyBytes,
        onClient: (client) => this.#options.onClient?.(client, user),
      });
      this.#users.set(user.id, endpoint);
    }
    return endpoint;
  }

  /** Serves one `/mcp` request of an authenticated user. */
  async handle(request: Request, user: RegistryUser): Promise<Response> {
    if (this.#closing !== undefined) return mcpErrorResponse(new SwitchboardError(ErrorCode.Unavailable, 'the gateway is shutting down'));
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const session = this.#sessions.get(sessionId);
      if (session === undefined) {
        // The SDK's own answer for an unknown session: the client starts a new one.
        return Response.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }, { status: 404 });
      }
      if (session.userId !== user.id) return mcpErrorResponse(new SwitchboardError(ErrorCode.Forbidden, 'this session belongs to another user'));
      return session.handle(request);
    }
    if (await isLegacyRequest(request, undefined, { maxRequestBodySize: this.#options.maxBodyBytes })) {
      if (request.method !== 'POST') {
        return Response.json({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' }, id: null }, { status: 400 });
      }
      return this.#openSession(request, user);
    }
    const lease = await this.#options.lease(user);
    const endpoint = this.endpointOf(user);
    endpoint.bind(lease.client);
    let response: Response;
    try {
      response = await endpoint.modern().fetch(request);
    } catch (error) {
      lease.release();
      throw error;
    }
    return onResponseEnd(response, () => lease.release());
  }

  /** Closes sessions idle longer than the TTL; returns how many. */
  closeIdleSessions(now: number = Date.now()): number {
    let closed = 0;
    for (const session of this.#sessions.values()) {
      if (session.idleMs(now) < this.#options.sessionIdleTtlMs) continue;
      this.#options.logger.info('closing an idle session', { session: session.id });
      void session.close();
      closed++;
    }
    return closed;
  }

  /** The pool closed a user's client: sessions of a removed user end; the endpoint stops following it. */
  clientEvicted(userId: string, reason: EvictionReason): void {
    const endpoint = this.#users.get(userId);
    if (endpoint === undefined) return;
    if (reason === 'user-removed') {
      for (const session of this.#sessions.values()) if (session.userId === userId) void session.close();
      this.#users.delete(userId);
      void endpoint.close();
      return;
    }
    endpoint.unbind();
  }

  /** Ends every session and handler. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      clearInterval(this.#sweep);
      await Promise.all([...this.#sessions.values()].map((session) => session.close()));
      await Promise.all([...this.#users.values()].map((endpoint) => endpoint.close()));
      this.#users.clear();
    })();
    return this.#closing;
  }

  async #openSession(request: Request, user: RegistryUser): Promise<Response> {
    const lease = await this.#options.lease(user);
    const endpoint = this.endpointOf(user);
    endpoint.bind(lease.client);
    return LegacySession.open(endpoint, lease, request, this.#options.maxBodyBytes, {
      onInitialized: (session) => {
        this.#sessions.set(session.id, session);
        this.#options.logger.info('session opened', { session: session.id, user: user.name });
      },
      onClosed: (session) => {
        if (this.#sessions.delete(session.id)) this.#options.logger.info('session closed', { session: session.id, user: user.name });
      },
    });
  }
}

/**
 * @module gateway/mcp-endpoint
 * `/mcp`: one URL for both protocol eras, per authenticated user.
 * - A request carrying `Mcp-Session-Id` belongs to a 2025-era session; the session must exist (404)
 *   and be the requester's (403). A session another replica of the cluster opened is resumed here
 *   from its sealed id (see {@link SessionIds}); one the client ended is refused everywhere.
 * - A 2025-era request without one (the SDK's `isLegacyRequest`) may only open a session with
 *   `initialize`.
 * - Everything else is 2026-07-28 traffic, served statelessly by the user's own handler
 *   (`createMcpHandler(…, { legacy: 'reject' })`), with a lease on the user's client held until the
 *   response (an SSE stream, for `subscriptions/listen` or a call with progress) has ended. A
 *   `subscriptions/listen` stream also holds a place under its cap until it ends, and keeps the
 *   upstreams of its `resourceSubscriptions` subscribed.
 */

import { randomUUID } from 'node:crypto';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import { ErrorCode, SwitchboardError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ClientLease, EvictionReason, UserClient } from '../pool/index.js';
import type { RegistryUser } from '../registry/index.js';
import type { ToolGate } from './access/tool-gate.js';
import type { CallTracker } from './call-tracker.js';
import { mcpErrorResponse } from './http-error.js';
import { LegacySession, SESSION_DORMANT_AFTER_MS } from './legacy-session.js';
import { isListenRequest } from './listen-request.js';
import { MAX_LISTENED_RESOURCES, listenedResources } from './listened-resources.js';
import { isStreaming, onResponseEnd, type ExchangeEndHook } from './on-response-end.js';
import { UserEndpoint } from './user-endpoint.js';
import { resumeSession } from './resume-session.js';
import { sessionDigest } from './session-seal.js';
import type { SessionIds } from './session-ids.js';
import type { SessionStates } from './session-states.js';
import type { UserSlots } from './user-slots.js';
import { deliverInSession, forwardRetry, relayedMessageOf } from './mcp-hop.js';
import type { ReplicaHop } from './replica-hop.js';

/** Options of an {@link McpEndpoint}. */
export interface McpEndpointOptions {
  /** A lease on the user's client (the gateway's, which also attaches metrics). */
  lease(user: RegistryUser): Promise<ClientLease>;
  tracker: CallTracker;
  logger: Logger;
  maxBodyBytes: number;
  sessionIdleTtlMs: number;
  /** Places for 2025-era sessions (per user and in total): one is taken before a session opens. */
  sessionSlots: UserSlots;
  /** Places for 2026-07-28 `subscriptions/listen` streams (per user and in total): one is taken before a stream opens. */
  listenSlots: UserSlots;
  /** Called when an endpoint starts using a client. */
  onClient?: (client: UserClient, user: RegistryUser) => void;
  /** The access check of a user here (tool rules, endpoint selection, rate limits, approvals). */
  toolGate?: (user: RegistryUser) => ToolGate;
  /** Session ids every replica can resume (issue 20); without them ids are random and live only here. */
  sessionIds?: SessionIds;
  /** The hop to the replica holding an `input_required` call (issue 20); without it every state is this process's. */
  hop?: ReplicaHop;
  /** Tells the other replicas about a session's cancellation or answer (its call may run on any of them). */
  publishSessionMessage?: (notice: { digest: string; userId: string; message: Record<string, unknown> }) => Promise<void>;
  /** Sessions' log levels and subscriptions, for the replicas that resume them (issue 20). */
  sessionStates?: SessionStates;
}

/** The `/mcp` endpoint. */
export class McpEndpoint {
  readonly #options: McpEndpointOptions;
  readonly #users = new Map<string, UserEndpoint>();
  readonly #sessions = new Map<string, LegacySession>();
  /** Session id digests → ids, for ends announced by other replicas. */
  readonly #digests = new Map<string, string>();
  /** Sessions being resumed here (a GET stream and a POST may arrive together). */
  readonly #resuming = new Map<string, Promise<LegacySession | Response>>();
  readonly #sweep: NodeJS.Timeout;
  /** Lets idle sessions' SDK servers go (they come back with the next request that needs them). */
  readonly #dormancy: NodeJS.Timeout;
  /** Open HTTP exchanges (requests) that carried a tool call: the call's answer is written on them. */
  readonly #open = new Set<Request>();
  readonly #withCalls = new Set<Request>();
  #quietWaiters: Array<() => void> = [];
  #closing: Promise<void> | undefined;
  readonly #unwatchStates: (() => void) | undefined;

  constructor(options: McpEndpointOptions) {
    this.#options = options;
    this.#unwatchStates = options.sessionStates?.watch((digest) => this.#stateChanged(digest));
    this.#sweep = setInterval(() => this.closeIdleSessions(), Math.max(1_000, Math.min(60_000, options.sessionIdleTtlMs / 2)));
    this.#sweep.unref();
    this.#dormancy = setInterval(() => {
      const now = Date.now();
      for (const session of this.#sessions.values()) session.sleepIfIdle(now);
    }, SESSION_DORMANT_AFTER_MS / 2);
    this.#dormancy.unref();
  }

  /** 2025-era sessions open now. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /**
   * Resolves once every exchange that carried a tool call has ended (or after `timeoutMs`): at
   * shutdown, the answers of the last calls reach their clients before sessions close. Long-lived
   * streams without a call (a `subscriptions/listen`, a GET stream) do not hold it up.
   */
  whenQuiet(timeoutMs: number): Promise<void> {
    if (this.#withCalls.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#quietWaiters = this.#quietWaiters.filter((waiter) => waiter !== wake);
        resolve();
      }, timeoutMs);
      const wake = (): void => {
        clearTimeout(timer);
        resolve();
      };
      this.#quietWaiters.push(wake);
    });
  }

  /** The open 2025-era session `id`, if any. */
  session(id: string): LegacySession | undefined {
    return this.#sessions.get(id);
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
        onCall: (request) => this.#callStarted(request),
        ...(this.#options.hop === undefined ? {} : { replicaId: this.#options.hop.replicaId }),
        ...(this.#options.toolGate === undefined ? {} : { toolGate: this.#options.toolGate(user) }),
      });
      this.#users.set(user.id, endpoint);
    }
    return endpoint;
  }

  /**
   * Serves one `/mcp` request of an authenticated user. `onEnd` (the Node response's `close`) says
   * when a streamed answer is over; without it the body is watched. `parsedBody`: the POST body,
   * already read and parsed (else it is read from `request`).
   */
  async handle(request: Request, user: RegistryUser, onEnd?: ExchangeEndHook, parsedBody?: { value: unknown }): Promise<Response> {
    const done: Array<() => void> = [];
    const hook: ExchangeEndHook = (callback) => done.push(callback);
    if (request.method === 'POST') {
      this.#open.add(request);
      done.push(() => this.#exchangeEnded(request));
    }
    let response: Response;
    try {
      response = await this.#handle(request, user, hook, parsedBody);
    } catch (error) {
      for (const callback of done) callback();
      throw error;
    }
    return onResponseEnd(response, () => {
      for (const callback of done) callback();
    }, onEnd);
  }

  #exchangeEnded(request: Request): void {
    this.#open.delete(request);
    if (this.#withCalls.delete(request) && this.#withCalls.size === 0) for (const wake of this.#quietWaiters.splice(0)) wake();
  }

  /** A tool call started on `request` (the HTTP request its answer goes back on). */
  #callStarted(request: Request | undefined): void {
    if (request !== undefined && this.#open.has(request)) this.#withCalls.add(request);
  }

  async #handle(request: Request, user: RegistryUser, onEnd: ExchangeEndHook, parsedBody: { value: unknown } | undefined): Promise<Response> {
    if (this.#closing !== undefined) return mcpErrorResponse(new SwitchboardError(ErrorCode.Unavailable, 'the gateway is shutting down'));
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      let session = this.#sessions.get(sessionId);
      const relayed = this.#options.publishSessionMessage === undefined ? undefined : relayedMessageOf(parsedBody?.value);
      // A cancellation or answer for a session not held here: its call runs elsewhere; told to the others without resuming the session here.
      if (session === undefined && relayed !== undefined && (await this.#options.sessionIds?.read(sessionId, user))?.kind === 'resume') {
        await this.#relay(sessionId, user, relayed);
        return new Response(null, { status: 202 });
      }
      if (session === undefined) {
        const resumed = await this.#resume(sessionId, user);
        if (resumed instanceof Response) return resumed;
        session = resumed;
      }
      if (session.userId !== user.id) return mcpErrorResponse(new SwitchboardError(ErrorCode.Forbidden, 'this session belongs to another user'));
      if (relayed !== undefined) await this.#relay(session.id, user, relayed);
      return session.handle(request, onEnd, parsedBody);
    }
    const forwarded = await forwardRetry(this.#options.hop, request, user, parsedBody);
    if (forwarded !== undefined) return forwarded;
    if (await isLegacyRequest(request, parsedBody?.value, { maxRequestBodySize: this.#options.maxBodyBytes })) {
      if (request.method !== 'POST') {
        return Response.json({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' }, id: null }, { status: 400 });
      }
      return this.#openSession(request, user, onEnd, parsedBody);
    }
    let releaseListen: (() => void) | undefined;
    let listened: string[] = [];
    if (await isListenRequest(request, parsedBody, this.#options.maxBodyBytes)) {
      listened = listenedResources(parsedBody?.value);
      if (listened.length > MAX_LISTENED_RESOURCES) {
        return mcpErrorResponse(new SwitchboardError(ErrorCode.InvalidArgument, `subscriptions/listen asks for ${listened.length} resources; at most ${MAX_LISTENED_RESOURCES} are allowed per stream: open several streams`));
      }
      try {
        releaseListen = this.#options.listenSlots.take(user);
      } catch (error) {
        return mcpErrorResponse(error);
      }
    }
    let lease: ClientLease;
    try {
      lease = await this.#options.lease(user);
    } catch (error) {
      releaseListen?.();
      throw error;
    }
    const endpoint = this.endpointOf(user);
    endpoint.bind(lease.client);
    // The upstreams are subscribed before the stream is acknowledged, and unsubscribed when it ends.
    const unlisten = listened.length === 0 ? undefined : await endpoint.listen(listened);
    const release = (): void => {
      unlisten?.();
      lease.release();
      releaseListen?.();
    };
    let response: Response;
    try {
      response = await endpoint.modern().fetch(request, parsedBody === undefined ? undefined : { parsedBody: parsedBody.value });
    } catch (error) {
      release();
      throw error;
    }
    // A listen refused by the SDK (bad filter) is a JSON answer: its place is freed at once.
    if (isStreaming(response)) onEnd(release);
    else release();
    return response;
  }

  /** Another replica ended the session whose id has this digest: it ends here too. */
  sessionEnded(digest: string): void {
    const id = this.#digests.get(digest);
    const session = id === undefined ? undefined : this.#sessions.get(id);
    if (session !== undefined) void session.close();
  }

  /** Another replica got a cancellation or answer of a session of `userId`: delivered to its call here (`fastCancel`: the fast path's calls). */
  async deliverRemote(notice: { digest: string; userId: string; message: Record<string, unknown> }, fastCancel: (sessionId: string) => boolean): Promise<void> {
    const id = this.#digests.get(notice.digest);
    const session = id === undefined ? undefined : this.#sessions.get(id);
    if (session === undefined || session.userId !== notice.userId || fastCancel(session.id)) return;
    await deliverInSession(session, notice.message);
  }

  async #relay(sessionId: string, user: RegistryUser, message: Record<string, unknown>): Promise<void> {
    await this.#options.publishSessionMessage?.({ digest: sessionDigest(sessionId), userId: user.id, message }).catch((error: unknown) => this.#options.logger.warn('cannot tell the other replicas about a session message', { error: String(error) }));
  }

  /** Closes the sessions here that ended on other replicas while their notices may have been lost. */
  async recheckEndedSessions(): Promise<void> {
    const ids = this.#options.sessionIds;
    if (ids === undefined || this.#sessions.size === 0) return;
    for (const id of await ids.endedAmong([...this.#sessions.keys()])) void this.#sessions.get(id)?.close();
  }

  /** A session this replica does not hold: resumed from its sealed id, or the answer refusing it. */
  #resume(id: string, user: RegistryUser): Promise<LegacySession | Response> {
    let resuming = this.#resuming.get(id);
    if (resuming === undefined) {
      resuming = resumeSession(id, user, { options: this.#options, endpointOf: (owner) => this.endpointOf(owner), hooks: (owner, release, opened) => this.#hooks(owner, release, opened) }).finally(() => this.#resuming.delete(id));
      this.#resuming.set(id, resuming);
    }
    return resuming;
  }

  /** Another replica stored the state of the session with this digest: applied here when this replica holds it. */
  #stateChanged(digest: string): void {
    const id = this.#digests.get(digest);
    const session = id === undefined ? undefined : this.#sessions.get(id);
    if (session === undefined) return;
    void (async () => {
      const state = await this.#options.sessionStates?.load(session.id, session.userId);
      if (state !== undefined) await session.carry(state);
    })().catch((error: unknown) => this.#options.logger.warn('cannot apply a session state from another replica', { error: String(error) }));
  }

  /** What every session of `user` reports back: registered when initialized, its place freed when closed. */
  #hooks(user: RegistryUser, release: () => void, opened: string): Parameters<typeof LegacySession.open>[7] {
    const ids = this.#options.sessionIds;
    const states = this.#options.sessionStates;
    return {
      onInitialized: (session) => {
        this.#sessions.set(session.id, session);
        this.#digests.set(sessionDigest(session.id), session.id);
        this.#options.logger.info(opened, { session: session.id.slice(0, 16), user: user.name });
      },
      onClosed: (session) => {
        // Also called when the first request was no successful initialize: the place is freed.
        release();
        this.#digests.delete(sessionDigest(session.id));
        if (this.#sessions.delete(session.id)) this.#options.logger.info('session closed', { session: session.id.slice(0, 16), user: user.name });
      },
      ...(ids === undefined
        ? {}
        : {
            onDeleted: async (session: LegacySession) => {
              await ids.ended(session.id, session.userId);
              await states?.remove(session.id);
            },
          }),
      ...(states === undefined ? {} : { onStateChanged: (session: LegacySession) => states.save(session.id, session.userId, session.record) }),
    };
  }

  /** Closes sessions idle longer than the TTL; returns how many. */
  closeIdleSessions(now: number = Date.now()): number {
    let closed = 0;
    for (const session of this.#sessions.values()) {
      if (session.idleMs(now) < this.#options.sessionIdleTtlMs) continue;
      // Only this replica's copy: the session stays valid and another request resumes it.
      this.#options.logger.info('closing an idle session', { session: session.id.slice(0, 16) });
      void session.close();
      closed++;
    }
    return closed;
  }

  /** The tasks `userId` started through this endpoint (none when they have not used it). */
  taskBindingsOf(userId: string): ReturnType<UserEndpoint['tasks']['list']> {
    return this.#users.get(userId)?.tasks.list() ?? [];
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

  /** Tells every connected client of every user that the tool list changed (the access rules did). */
  toolsChanged(): void {
    for (const endpoint of this.#users.values()) endpoint.toolsChanged();
  }

  /** Ends every session and handler. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      clearInterval(this.#sweep);
      clearInterval(this.#dormancy);
      this.#unwatchStates?.();
      await Promise.all([...this.#sessions.values()].map((session) => session.close()));
      await Promise.all([...this.#users.values()].map((endpoint) => endpoint.close()));
      this.#users.clear();
    })();
    return this.#closing;
  }

  async #openSession(request: Request, user: RegistryUser, onEnd: ExchangeEndHook, parsedBody: { value: unknown } | undefined): Promise<Response> {
    let release: () => void;
    try {
      release = this.#options.sessionSlots.take(user);
    } catch (error) {
      return mcpErrorResponse(error);
    }
    try {
      const lease = await this.#options.lease(user);
      const endpoint = this.endpointOf(user);
      endpoint.bind(lease.client);
      const ids = this.#options.sessionIds;
      const id = ids === undefined ? randomUUID() : ids.mint(user, parsedBody?.value ?? (await bodyOf(request, this.#options.maxBodyBytes)));
      return await LegacySession.open(id, endpoint, lease, request, onEnd, parsedBody, this.#options.maxBodyBytes, this.#hooks(user, release, 'session opened'));
    } catch (error) {
      release();
      throw error;
    }
  }
}

/** The JSON body of a request whose body was not read yet (a fetch-style caller), leaving it readable. */
async function bodyOf(request: Request, maxBodyBytes: number): Promise<unknown> {
  try {
    const text = await request.clone().text();
    return text.length > maxBodyBytes ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

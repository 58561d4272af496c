/**
 * @module gateway/legacy-session
 * A 2025-era client's session: the SDK's sessionful Streamable HTTP transport and one aggregated
 * server, bound to the user who opened it. The session holds a lease on the user's
 * client, so the pool keeps that client (and its upstream sessions) while the session lives; it ends
 * with the client's `DELETE`, when the user is removed, when it has been idle too long, or at shutdown.
 * A session idle for a while (nothing open, no subscription) lets its transport and server go
 * ({@link LegacySession.sleepIfIdle}) and rebuilds them for the next request that needs them (see
 * `legacy-session-engine`): an idle session costs its own state, not an SDK server's. A plain
 * `initialize` is answered without them at all (`lean-initialize`): such a session starts dormant, the
 * fast path serves it as it is, and only a request that needs an SDK server builds one (issue 17).
 */

import type { CallToolResult, ClientCapabilities, Server } from '@modelcontextprotocol/server';
import type { ClientLease, UserClient } from '../pool/index.js';
import type { StoredSessionState } from '../registry/index.js';
import { createSessionEngine, dropSessionEngine, handshakeOf, replayInitialize, type SessionEngine, type SessionHandshake } from './legacy-session-engine.js';
import { newDownstreamSession, type DownstreamSession } from './downstream-session.js';
import { instructionsOf } from './aggregated-server.js';
import { dormantAnswerOf } from './dormant-answer.js';
import { leanInitializeAnswer, leanInitializeOf } from './lean-initialize.js';
import { projectLegacyCallToolResult } from './legacy-result-projection.js';
import { isStreaming, type ExchangeEndHook } from './on-response-end.js';
import { applySessionState, hasState } from './session-states.js';
import type { UserEndpoint } from './user-endpoint.js';

/** How long a session is idle before its transport and server go. @default 5000 */
export const SESSION_DORMANT_AFTER_MS = 5_000;

/** Callbacks of a {@link LegacySession}. */
export interface LegacySessionHooks {
  /** The client completed `initialize`: the session exists from now on. */
  onInitialized(session: LegacySession): void;
  /** The session ended (called once). */
  onClosed(session: LegacySession): void;
  /** The client ended the session with `DELETE` (before {@link onClosed}): it ends on every replica. */
  onDeleted?(session: LegacySession): Promise<void> | void;
  /** The client changed the session's log level or subscriptions (awaited before its request is answered). */
  onStateChanged?(session: LegacySession): Promise<void>;
}

/** One 2025-era session. */
export class LegacySession {
  readonly id: string;
  readonly userId: string;
  readonly record: DownstreamSession;
  readonly #endpoint: UserEndpoint;
  readonly #lease: ClientLease;
  readonly #hooks: LegacySessionHooks;
  readonly #maxBodyBytes: number;
  /** The transport and server; undefined while the session is dormant. */
  #engine: SessionEngine | undefined;
  #waking: Promise<SessionEngine> | undefined;
  /** The client's `initialize`, once it succeeded (what a new engine replays). */
  #handshake: SessionHandshake | undefined;
  #active = 0;
  #lastActive = Date.now();
  #closing: Promise<void> | undefined;

  private constructor(id: string, endpoint: UserEndpoint, lease: ClientLease, maxBodyBytes: number, hooks: LegacySessionHooks) {
    this.id = id;
    this.userId = endpoint.user.id;
    this.#endpoint = endpoint;
    this.#lease = lease;
    this.#hooks = hooks;
    this.#maxBodyBytes = maxBodyBytes;
    this.record = newDownstreamSession(this.id, 'legacy');
    const onStateChanged = hooks.onStateChanged;
    if (onStateChanged !== undefined) this.record.stateChanged = () => onStateChanged(this);
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
    const lean = parsedBody === undefined ? undefined : leanInitializeOf(request, parsedBody.value);
    const client = lean === undefined ? undefined : session.client();
    if (lean !== undefined && client !== undefined) {
      // Answered here: the session starts dormant, with the handshake a woken engine replays.
      session.#handshake = lean.handshake;
      endpoint.attach(session.record);
      hooks.onInitialized(session);
      return leanInitializeAnswer(id, lean, instructionsOf(client));
    }
    try {
      const engine = await session.#newEngine(() => hooks.onInitialized(session));
      session.#engine = engine;
      endpoint.attach(session.record);
      const response = await session.handle(request, onEnd, parsedBody);
      // Anything but a successful initialize leaves no session behind.
      if (engine.transport.sessionId === undefined) await session.close();
      else session.#handshake = handshakeOf(engine);
      return response;
    } catch (error) {
      await session.close();
      throw error;
    }
  }

  /**
   * Resumes here a session another replica opened (its id carried what `initialize` said): the
   * handshake is replayed into a fresh engine, as a dormant session wakes. Resolves to the session,
   * initialized, or undefined when the replayed handshake was refused.
   */
  static async resume(id: string, endpoint: UserEndpoint, lease: ClientLease, handshake: { protocolVersion: string; capabilities: Record<string, unknown>; clientInfo: Record<string, unknown> }, maxBodyBytes: number, hooks: LegacySessionHooks): Promise<LegacySession | undefined> {
    const { name, version } = handshake.clientInfo;
    if (typeof name !== 'string' || typeof version !== 'string') return undefined;
    const replayed: SessionHandshake = { protocolVersion: handshake.protocolVersion, capabilities: handshake.capabilities, clientInfo: { ...handshake.clientInfo, name, version } };
    const session = new LegacySession(id, endpoint, lease, maxBodyBytes, hooks);
    try {
      const engine = await session.#newEngine(() => hooks.onInitialized(session));
      session.#engine = engine;
      endpoint.attach(session.record);
      try {
        await replayInitialize(engine, replayed);
      } catch {
        await session.close();
        return undefined;
      }
      session.#handshake = replayed;
      return session;
    } catch (error) {
      await session.close();
      throw error;
    }
  }

  /** Brings the session to a state another replica stored (log level, subscriptions made upstream here). */
  carry(state: StoredSessionState): Promise<void> {
    if (this.#closing !== undefined || hasState(this.record, state)) return Promise.resolve();
    return applySessionState(this.record, this.#endpoint, state, this.#endpoint.logger);
  }

  /** The server instance of this session; undefined while it is dormant. */
  get server(): Server | undefined {
    return this.#engine?.server;
  }

  /** The capabilities the client declared in `initialize`; undefined until it succeeded. */
  get clientCapabilities(): ClientCapabilities | undefined {
    return this.#handshake?.capabilities ?? this.#engine?.server.getClientCapabilities();
  }

  /** A `tools/call` result as this session's server sends it (also while it is dormant). */
  projectCallToolResult(result: CallToolResult, outputSchema: Readonly<Record<string, unknown>> | undefined): CallToolResult {
    return this.#engine?.server.projectCallToolResult(result, outputSchema) ?? projectLegacyCallToolResult(result, outputSchema);
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
    if (this.#engine === undefined && this.#waking === undefined && this.#handshake !== undefined) {
      const answer = dormantAnswerOf(request, parsedBody);
      if (answer !== undefined) {
        this.#lastActive = Date.now();
        return answer;
      }
    }
    this.#active++;
    let response: Response;
    try {
      const engine = this.#engine ?? (await this.#wake());
      response = await engine.transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody: parsedBody.value });
    } catch (error) {
      this.#exchangeEnded();
      throw error;
    }
    if (isStreaming(response)) onEnd(() => this.#exchangeEnded());
    else this.#exchangeEnded();
    return response;
  }

  /**
   * Lets the transport and server go when nothing has been open for `afterMs` and nothing needs them
   * meanwhile (no subscription, no log level: what only a live server delivers). True when it did.
   */
  sleepIfIdle(now: number = Date.now(), afterMs: number = SESSION_DORMANT_AFTER_MS): boolean {
    const engine = this.#engine;
    if (engine === undefined || this.#handshake === undefined || this.#closing !== undefined || this.#waking !== undefined) return false;
    if (this.#active > 0 || now - this.#lastActive < afterMs || this.record.subscriptions.size > 0 || this.record.logLevel !== undefined) return false;
    this.#engine = undefined;
    this.record.server = undefined;
    void dropSessionEngine(engine);
    return true;
  }

  /** Ends the session: its streams close, its subscriptions go, its lease is released. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#hooks.onClosed(this);
      try {
        await this.#endpoint.detach(this.record);
        const engine = this.#engine ?? (await this.#waking?.catch(() => undefined));
        await engine?.server.close().catch(() => {});
      } finally {
        this.#lease.release();
      }
    })();
    return this.#closing;
  }

  /** A new engine for this session (`onInitialized`: what its transport's accepted `initialize` does). */
  #newEngine(onInitialized: () => void): Promise<SessionEngine> {
    return createSessionEngine(this.id, this.#endpoint, this.record, this.#maxBodyBytes, { onInitialized, onDeleted: () => this.#hooks.onDeleted?.(this), onClosed: () => void this.close() });
  }

  /** The engine of a dormant session, rebuilt (one rebuild for concurrent requests). */
  #wake(): Promise<SessionEngine> {
    const handshake = this.#handshake;
    if (handshake === undefined) return Promise.reject(new Error('the session has no engine and was never initialized'));
    this.#waking ??= (async () => {
      const engine = await this.#newEngine(() => {});
      try {
        await replayInitialize(engine, handshake);
      } catch (error) {
        await dropSessionEngine(engine);
        throw error;
      }
      if (this.#closing !== undefined) await dropSessionEngine(engine);
      else this.#engine = engine;
      return engine;
    })().finally(() => (this.#waking = undefined));
    return this.#waking;
  }

  #exchangeEnded(): void {
    this.#active--;
    this.#lastActive = Date.now();
  }
}

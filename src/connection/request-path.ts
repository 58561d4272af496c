/**
 * @module connection/request-path
 * The one way a request reaches a server, whichever session carries it: wait while the server is
 * (re)starting, send with the call's deadline, and when an HTTP server has forgotten the session
 * (404) re-initialize once and send again; failures are mapped once, here. Kept lean: a call with
 * default options allocates no options object, and the ready case adds no await.
 */

import type { ServerSpec } from '../config/server-spec.js';
import { isSwitchboardError, type SwitchboardError } from '../errors.js';
import type { Logger } from '../logger.js';
import { httpStatusOf, toSwitchboardError } from '../to-switchboard-error.js';
import type { CallOptions } from './call-options.js';
import { closedError } from './connection-errors.js';
import type { LeanRequestOptions } from './lean-requester.js';
import type { ConnectionLifecycle } from './lifecycle/connection-lifecycle.js';
import type { ServerLink } from './server-link.js';
import type { McpSession, ToolCallParams } from './session/mcp-session.js';

/** Requests of one connection. */
export class RequestPath {
  readonly #spec: ServerSpec;
  readonly #logger: Logger;
  readonly #link: ServerLink;
  readonly #life: ConnectionLifecycle;
  /** HTTP sessions the server forgot (404): their in-flight requests are safe to resend. */
  readonly #expiredSessions = new Set<string>();
  /** Request options of a call that sets none of its own (shared: the per-call path allocates less). */
  readonly #defaultOptions: LeanRequestOptions;

  constructor(spec: ServerSpec, logger: Logger, link: ServerLink, life: ConnectionLifecycle) {
    this.#spec = spec;
    this.#logger = logger;
    this.#link = link;
    this.#life = life;
    this.#defaultOptions = { timeoutMs: spec.callTimeoutMs };
  }

  /** The session, once serving (waiting for a start or restart under way). */
  async session(options: CallOptions): Promise<McpSession> {
    if (!this.#life.state.serving) await this.#whenReady(options.timeoutMs ?? this.#spec.callTimeoutMs, options.signal);
    return this.#readySession();
  }

  /**
   * Sends `method`; `toolName`: a `tools/call` of that tool (named in errors; the string is built only
   * on failure); `map`: what the caller makes of the raw result, run in the same reaction as the
   * failure handler (one promise less per call). Not `async` while the server is serving: one promise
   * derived per call instead of an async frame (the per-call path, issue 17); a failure is handled by
   * {@link #recover}.
   */
  request<T = unknown>(method: string, params: Record<string, unknown> | undefined, options: CallOptions, toolName: string | undefined, map?: (raw: unknown) => T): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.#spec.callTimeoutMs;
    // A call made while the server is being restarted waits for it (it has not reached the server).
    if (!this.#life.state.serving) return this.#whenReady(timeoutMs, options.signal).then(() => this.#sendOrRecover(method, params, options, timeoutMs, toolName, map));
    return this.#sendOrRecover(method, params, options, timeoutMs, toolName, map);
  }

  #sendOrRecover<T>(method: string, params: Record<string, unknown> | undefined, options: CallOptions, timeoutMs: number, toolName: string | undefined, map: ((raw: unknown) => T) | undefined): Promise<T> {
    const session = this.#link.sessionId;
    let sent: Promise<unknown>;
    const recover = (error: unknown): Promise<T> => {
      const recovered = this.#recover(error, session, method, params, options, timeoutMs, toolName);
      return map === undefined ? (recovered as Promise<T>) : recovered.then(map);
    };
    try {
      sent = this.#send(method, params, options, timeoutMs, toolName);
    } catch (error) {
      return recover(error);
    }
    return sent.then(map, recover) as Promise<T>;
  }

  /** A failed request: sent again once when its HTTP session expired, else the failure as the caller sees it. */
  async #recover(error: unknown, session: string | undefined, method: string, params: Record<string, unknown> | undefined, options: CallOptions, timeoutMs: number, toolName: string | undefined): Promise<unknown> {
    const operation = toolName === undefined ? method : `${method} ${toolName}`;
    // A 404 for a known session means the server forgot it: the spec requires a new initialize.
    // Requests on that session never reached a live one (they 404 or are cut off by the
    // re-initialize), so sending them again is safe whatever they do.
    const expired = session !== undefined && this.#link.transportKind === 'http' && (httpStatusOf(error) === 404 || this.#expiredSessions.has(session));
    if (!expired || this.#life.closing || options.signal?.aborted === true) throw this.callError(error, operation, options.signal);
    this.#expiredSessions.add(session);
    this.#logger.info('session expired (HTTP 404); re-initializing', { method });
    this.#life.lastError = toSwitchboardError(error, { server: this.#spec.name, operation });
    if (this.#link.sessionId === session) await this.#life.reconnect('session-expired').catch(() => {});
    else await this.#whenReady(timeoutMs, options.signal);
    try {
      return await this.#send(method, params, options, timeoutMs, toolName);
    } catch (retryError) {
      throw this.callError(retryError, operation, options.signal);
    }
  }

  /** Deadline, cancellation and progress of a call, resolved. */
  options(options: CallOptions, timeoutMs: number = options.timeoutMs ?? this.#spec.callTimeoutMs): LeanRequestOptions {
    if (timeoutMs === this.#spec.callTimeoutMs && options.signal === undefined && options.onProgress === undefined) return this.#defaultOptions;
    // One literal of one shape, not conditional spreads (a temporary object and a property copy each, per call).
    return { timeoutMs, signal: options.signal, onProgress: options.onProgress };
  }

  /** A failure of `operation` as the caller sees it (a closed or failed connection says so). */
  callError(error: unknown, operation: string, signal: AbortSignal | undefined): SwitchboardError {
    if (isSwitchboardError(error)) return error;
    const state = this.#life.state.value;
    if ((state === 'failed' || state === 'closed') && !(signal?.aborted ?? false)) return this.#life.lastError ?? closedError(this.#spec.name);
    return toSwitchboardError(error, { server: this.#spec.name, operation, aborted: signal?.aborted ?? false });
  }

  #send(method: string, params: Record<string, unknown> | undefined, options: CallOptions, timeoutMs: number, toolName: string | undefined): Promise<unknown> {
    const session = this.#readySession();
    const requestOptions = this.options(options, timeoutMs);
    return toolName === undefined ? session.request(method, params, requestOptions) : session.callTool(params as unknown as ToolCallParams, requestOptions);
  }

  #readySession(): McpSession {
    const session = this.#link.session;
    if (session !== undefined && this.#life.state.serving) return session;
    throw this.#life.notConnectedError();
  }

  /** Waits until the server is ready again (bounded by `timeoutMs` and `signal`); throws if it is not. */
  async #whenReady(timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
    const life = this.#life;
    if (life.state.serving) return;
    const waiting = life.pending;
    if (waiting === undefined || life.closing) throw life.notConnectedError();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        waiting.catch(() => {}),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
        ...(signal === undefined ? [] : [new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))]),
      ]);
    } finally {
      clearTimeout(timer);
    }
    signal?.throwIfAborted();
    if (!life.state.serving) throw life.notConnectedError();
  }
}

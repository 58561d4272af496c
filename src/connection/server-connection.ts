/**
 * @module connection/server-connection
 * One MCP server, connected correctly: the handshake for every protocol era (2025 `initialize` →
 * `notifications/initialized`, or the 2026-07-28 `server/discover` probe when asked), a start-up
 * deadline that covers spawn and handshake, per-call deadlines, cancellation and progress, automatic
 * fallback from Streamable HTTP to legacy SSE, every content item kept, and a `close()` that leaves no
 * process behind.
 *
 * A facade: the link and its session ({@link ServerLink}, `session/`), restarts and retries
 * ({@link Supervisor}), health checks ({@link HealthMonitor}), the state ({@link ConnectionState}).
 * What stays here is the one request path: wait while (re)starting, send, and on an expired HTTP
 * session (404) re-initialize once and send again, whichever session carries the request.
 */

import type { OAuthAuthorizer } from '../auth/oauth-authorizer.js';
import type { ServerSpec } from '../config/server-spec.js';
import { DEFAULT_HEALTH_CHECK_POLICY, DEFAULT_RESTART_POLICY } from '../config/server-spec.js';
import { isSwitchboardError, type SwitchboardError } from '../errors.js';
import { noopLogger, type Logger } from '../logger.js';
import { normalizeToolResult } from '../result/normalize-tool-result.js';
import type { ToolResult } from '../result/tool-result.js';
import { toSwitchboardError } from '../to-switchboard-error.js';
import { TypedEmitter } from '../util/typed-emitter.js';
import type { CallOptions } from './call-options.js';
import { closedError, invalidResultError, notConnectedError } from './connection-errors.js';
import { ConnectionState } from './connection-state.js';
import type { TransportKind } from './create-transport.js';
import { httpStatus } from './http-status.js';
import type { LeanRequestOptions } from './lean-requester.js';
import { HealthMonitor } from './lifecycle/health-monitor.js';
import { Supervisor, type AttemptTrigger } from './lifecycle/supervisor.js';
import { listPages, validItems } from './list-pages.js';
import type { GetPromptResult, ListKind, PromptDefinition, ReadResourceResult, ResourceDefinition, ResourceTemplateDefinition, ServerInfo, ToolDefinition } from './mcp-types.js';
import { OAuthHook } from './oauth-hook.js';
import type { ServerConnectionEvents, ServerConnectionOptions } from './server-connection-options.js';
import { ServerLink } from './server-link.js';
import type { ServerState } from './server-state.js';
import type { McpSession, ToolCallParams } from './session/mcp-session.js';
import { openWithinDeadline } from './open-within-deadline.js';
import type { StartTiming } from './start-within-deadline.js';

export type { CallOptions } from './call-options.js';
export { MAX_LIST_PAGES } from './list-pages.js';
export type { ServerConnectionEvents, ServerConnectionOptions, ServerRequestHandler } from './server-connection-options.js';

/** How long a disconnect waits for the child's exit status, to report it. */
const EXIT_STATUS_WAIT_MS = 500;

/**
 * One MCP server.
 *
 * @example
 * ```ts
 * const connection = await ServerConnection.open({ ...spec });
 * const tools = await connection.listTools();
 * const result = await connection.callTool('echo', { message: 'hi' });
 * await connection.close();
 * ```
 */
export class ServerConnection extends TypedEmitter<ServerConnectionEvents> {
  readonly spec: ServerSpec;
  readonly #options: ServerConnectionOptions;
  readonly #logger: Logger;
  readonly #state = new ConnectionState((from, to, error, trigger) => this.emit('state-change', { server: this.spec.name, from, to, ...(error === undefined ? {} : { error }), ...(trigger === undefined ? {} : { trigger }) }));
  readonly #link: ServerLink;
  readonly #supervisor: Supervisor;
  readonly #health: HealthMonitor | undefined;
  readonly #oauth: OAuthHook;
  #lastError: SwitchboardError | undefined;
  #connecting: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  #connectAbort: AbortController | undefined;
  #readyAt: number | undefined;
  #pendingTeardown: Promise<void> | undefined;
  #everReady = false;
  #lastStart: StartTiming | undefined;
  #restarts = 0;
  /** HTTP sessions the server forgot (404): their in-flight requests are safe to resend. */
  readonly #expiredSessions = new Set<string>();
  /** Request options of a call that sets none of its own (shared: the per-call path allocates less). */
  readonly #defaultRequestOptions: LeanRequestOptions;

  constructor(spec: ServerSpec, options: ServerConnectionOptions = {}) {
    super();
    this.spec = spec;
    this.#options = options;
    this.#defaultRequestOptions = { timeoutMs: spec.callTimeoutMs };
    const logger = (this.#logger = (options.logger ?? noopLogger).child({ server: spec.name }));
    this.onListenerError = (error, event) => logger.error('event listener threw', { event, error: String(error) });
    const server = spec.name;
    this.#oauth = new OAuthHook(spec, options, logger);
    this.#link = new ServerLink({
      spec,
      options,
      logger,
      sink: {
        listChanged: (kind) => this.emit('list-changed', { server, kind }),
        resourceUpdated: (uri) => this.emit('resource-updated', { server, uri }),
        log: (level, source, data) => this.emit('log', { server, level, ...(source === undefined ? {} : { logger: source }), data }),
        protocolError: (error) => logger.debug('protocol error', { error: error.message }),
      },
      stderrLine: (line) => this.emit('stderr', { server, line }),
      closed: () => this.#onLinkClosed(),
      httpFetch: () => this.#oauth.fetch(),
    });
    const self = this;
    this.#supervisor = new Supervisor(
      {
        get closing() { return self.#closing !== undefined; },
        get state() { return self.#state.value; },
        get lastError() { return self.#lastError; },
        set lastError(error) { self.#lastError = error; },
        setState: (to, error) => this.#state.set(to, error),
        closedError: () => closedError(server),
        attempt: async () => {
          await this.#link.teardown();
          await this.#establish(undefined);
        },
        ready: (reason, attempt) => this.#becameReady(reason, attempt),
        connect: (trigger) => this.#connectNow(undefined, trigger),
        warn: (message, fields) => logger.warn(message, fields),
      },
      { restart: spec.restart === false ? false : (spec.restart ?? DEFAULT_RESTART_POLICY), startRetry: options.startRetry },
    );
    const health = spec.healthCheck === false ? undefined : (spec.healthCheck ?? DEFAULT_HEALTH_CHECK_POLICY);
    this.#health =
      health === undefined
        ? undefined
        : new HealthMonitor(
            {
              server,
              serving: () => this.#state.serving,
              get degraded() { return self.#state.value === 'degraded'; },
              ping: (timeoutMs) => this.request('ping', undefined, { timeoutMs }),
              markDegraded: (error) => this.#state.set('degraded', error),
              markRecovered: () => this.#state.set('ready'),
              dead: (error) => {
                this.#lastError = error;
                this.reconnect('health-check').catch(() => {});
              },
              warn: (message, fields) => logger.warn(message, fields),
            },
            health,
          );
  }

  /** Connects and returns the connection; rejects with a typed error (and leaves nothing running). */
  static async open(spec: ServerSpec, options: ServerConnectionOptions = {}): Promise<ServerConnection> {
    const connection = new ServerConnection(spec, options);
    await connection.connect();
    return connection;
  }

  /** The server's name in the config. */
  get name(): string { return this.spec.name; }
  get state(): ServerState { return this.#state.value; }
  /** The wire in use once connected (`http` or `sse` for a URL, after fallback). */
  get transportKind(): TransportKind | undefined { return this.#link.transportKind; }
  /** The negotiated protocol version. */
  get protocolVersion(): string | undefined { return this.#link.session?.protocolVersion; }
  /** `legacy` (2025 `initialize`) or `modern` (2026-07-28). */
  get protocolEra(): 'legacy' | 'modern' | undefined { return this.#link.session?.protocolEra; }
  get serverInfo(): ServerInfo | undefined { return this.#link.session?.serverInfo; }
  get capabilities(): Record<string, unknown> | undefined { return this.#link.session?.capabilities; }
  get instructions(): string | undefined { return this.#link.session?.instructions; }
  /** The last error (start-up failure or disconnect). */
  get lastError(): SwitchboardError | undefined { return this.#lastError; }
  /** When the connection last became ready (ms since epoch). */
  get readyAt(): number | undefined { return this.#readyAt; }
  /** The last start attempt: time waiting for a start slot, time from spawn to the end of the handshake, the deadline. */
  get lastStart(): StartTiming | undefined { return this.#lastStart; }
  /** Successful restarts or reconnects since the first connect. */
  get restarts(): number { return this.#restarts; }
  /** PID of the server process (stdio), also its process group id. */
  get pid(): number | undefined { return this.#link.stdio?.pid; }
  /** The last lines the server wrote to stderr. */
  stderrTail(lines = 20): string[] { return this.#link.stderrTail(lines); }
  /** The OAuth layer of this connection (kept across reconnects, so are its tokens), if it has one. */
  get oauth(): OAuthAuthorizer | undefined { return this.#oauth.current; }
  /** The OAuth layer, created on first need; undefined for stdio, with an `authProvider`, or when not needed. */
  oauthAuthorizer(): Promise<OAuthAuthorizer | undefined> { return this.#oauth.authorizer(); }

  /**
   * Connects within the start-up deadline. Concurrent calls share one attempt. Calling it again after
   * a failure (or while the circuit is open) makes a new attempt at once.
   */
  connect(options: { signal?: AbortSignal } = {}): Promise<void> {
    return this.#connectNow(options.signal, undefined);
  }

  #connectNow(signal: AbortSignal | undefined, trigger: AttemptTrigger | undefined): Promise<void> {
    if (this.#closing !== undefined) return Promise.reject(closedError(this.spec.name));
    if (this.#state.serving) return Promise.resolve();
    const reconnecting = this.#supervisor.reconnecting;
    if (reconnecting !== undefined) return reconnecting;
    this.#connecting ??= this.#connect(signal, trigger).finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  async #connect(signal: AbortSignal | undefined, trigger: AttemptTrigger | undefined): Promise<void> {
    this.#supervisor.connecting(trigger);
    this.#state.set('connecting', undefined, trigger);
    try {
      await this.#establish(signal);
      this.#becameReady();
    } catch (error) {
      const mapped = error as SwitchboardError;
      this.#lastError = mapped;
      if (this.#closing === undefined) {
        this.#state.set('failed', mapped);
        if (trigger !== 'probe') this.#supervisor.startFailed();
      }
      throw mapped;
    }
  }

  /** One attempt at a session within the start-up deadline; on failure it is torn down (without waiting). */
  async #establish(signal: AbortSignal | undefined): Promise<void> {
    const abort = new AbortController();
    this.#connectAbort = abort;
    try {
      await this.#pendingTeardown;
      await openWithinDeadline(this.#link, {
        spec: this.spec,
        // The first start may have a longer deadline (see ServerSpec.firstStartTimeoutMs).
        deadlineMs: this.#everReady ? this.spec.startupTimeoutMs : (this.spec.firstStartTimeoutMs ?? this.spec.startupTimeoutMs),
        limiter: this.#options.startLimiter,
        abort,
        signal,
        closed: () => (this.#closing === undefined ? undefined : closedError(this.spec.name)),
        onTiming: (timing) => (this.#lastStart = timing),
      });
    } catch (error) {
      // Not awaited: a hung server may take seconds to end, and the caller should hear of the failure
      // now. close() and the next attempt wait for it.
      this.#pendingTeardown = this.#link.teardown().catch((teardownError: unknown) => this.#logger.debug('error while ending a failed server', { error: String(teardownError) }));
      throw error;
    } finally {
      this.#connectAbort = undefined;
    }
  }

  #becameReady(reason = 'probe', attempt = 1): void {
    const again = this.#everReady;
    this.#readyAt = Date.now();
    this.#lastError = undefined;
    this.#everReady = true;
    this.#supervisor.succeeded();
    this.#state.set('ready');
    // The 2026-07-28 era has no ping.
    if (this.protocolEra === 'legacy') this.#health?.start();
    this.#logger.debug('connected', { protocolVersion: this.protocolVersion, transport: this.transportKind, serverInfo: this.serverInfo });
    if (again) {
      this.#restarts++;
      this.emit('reconnected', { server: this.spec.name, attempt, reason });
    }
  }

  /** Restarts (stdio) or reconnects (HTTP) now, sharing one attempt between concurrent callers. */
  reconnect(reason = 'requested'): Promise<void> {
    if (this.#closing !== undefined) return Promise.reject(closedError(this.spec.name));
    this.#health?.stop();
    return this.#supervisor.reconnect(reason);
  }

  #onLinkClosed(): void {
    if (this.#closing !== undefined || !this.#state.serving) return;
    this.#health?.stop();
    const restart = this.spec.restart !== false;
    this.#lastError = this.#link.disconnectError();
    this.#state.set(restart ? 'reconnecting' : 'failed', this.#lastError);
    this.#supervisor.crashed(async () => {
      // stdout closes a moment before the exit status is known; wait briefly to report it.
      await this.#link.stdio?.waitForExit(EXIT_STATUS_WAIT_MS);
      const error = this.#link.disconnectError();
      this.#lastError = error;
      this.#logger.warn('server disconnected', { reason: error.message, restarting: restart });
      this.emit('disconnected', { server: this.spec.name, error, restarting: restart });
      // A crashed child may leave grandchildren behind; end the group.
      await this.#link.teardown();
    });
  }

  /** Waits until the server is ready again (bounded by `timeoutMs` and `signal`); throws if it is not. */
  async #whenReady(timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
    if (this.#state.serving) return;
    const waiting = this.#supervisor.reconnecting ?? this.#connecting;
    if (waiting === undefined || this.#closing !== undefined) throw this.#notConnectedError();
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
    if (!this.#state.serving) throw this.#notConnectedError();
  }

  /** Tools, following pagination. Servers without the tools capability have none. */
  listTools(options: CallOptions = {}): Promise<ToolDefinition[]> { return this.#list('tools', options) as Promise<ToolDefinition[]>; }
  /** Resources, following pagination. */
  listResources(options: CallOptions = {}): Promise<ResourceDefinition[]> { return this.#list('resources', options) as Promise<ResourceDefinition[]>; }
  /** Resource templates, following pagination. */
  listResourceTemplates(options: CallOptions = {}): Promise<ResourceTemplateDefinition[]> { return this.#list('resourceTemplates', options) as Promise<ResourceTemplateDefinition[]>; }
  /** Prompts, following pagination. */
  listPrompts(options: CallOptions = {}): Promise<PromptDefinition[]> { return this.#list('prompts', options) as Promise<PromptDefinition[]>; }

  async #list(kind: ListKind, options: CallOptions): Promise<unknown[]> {
    if (!this.#state.serving) await this.#whenReady(options.timeoutMs ?? this.spec.callTimeoutMs, options.signal);
    const session = this.#readySession();
    if (session.capabilities?.[kind === 'resourceTemplates' ? 'resources' : kind] === undefined) return [];
    if (kind === 'tools') {
      let own: unknown[] | undefined;
      try {
        own = await session.ownToolList(this.#requestOptions(options));
      } catch (error) {
        throw this.#callError(error, 'tools/list', options.signal);
      }
      if (own !== undefined) return validItems('tools', own, this.#logger);
    }
    return listPages(kind, (method, params) => this.request(method, params, options), this.#logger, (method, problem) => invalidResultError(this.spec.name, method, problem));
  }

  /** Calls a tool. A result with `isError: true` is returned, not thrown. */
  async callTool(name: string, args: Record<string, unknown> = {}, options: CallOptions = {}): Promise<ToolResult> {
    const raw = await this.#request('tools/call', { name, arguments: args }, options, name);
    return normalizeToolResult(raw, this.spec.name);
  }

  /** Reads a resource. */
  async readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    const result = await this.request('resources/read', { uri }, options);
    if (!Array.isArray((result as { contents?: unknown } | undefined)?.contents)) throw invalidResultError(this.spec.name, 'resources/read', '`contents` is not an array');
    return result as ReadResourceResult;
  }

  /** Gets a prompt with its arguments filled in. */
  async getPrompt(name: string, args: Record<string, string> = {}, options: CallOptions = {}): Promise<GetPromptResult> {
    const result = await this.request('prompts/get', { name, arguments: args }, options);
    if (!Array.isArray((result as { messages?: unknown } | undefined)?.messages)) throw invalidResultError(this.spec.name, 'prompts/get', '`messages` is not an array');
    return result as GetPromptResult;
  }

  /** Pings the server (2025 era; the 2026-07-28 era has no ping and resolves at once). */
  async ping(options: CallOptions = {}): Promise<void> {
    if (this.protocolEra === 'modern') return;
    await this.request('ping', undefined, options);
  }

  /**
   * Sends any request and returns the raw result. Used by the methods above; exposed for methods
   * this class does not wrap (e.g. `completion/complete`, `logging/setLevel`).
   */
  request(method: string, params: Record<string, unknown> | undefined, options: CallOptions = {}): Promise<unknown> {
    return this.#request(method, params, options, undefined);
  }

  /** The one request path. `toolName`: a `tools/call` of that tool (named in errors; the string is built only on failure). */
  async #request(method: string, params: Record<string, unknown> | undefined, options: CallOptions, toolName: string | undefined): Promise<unknown> {
    const timeoutMs = options.timeoutMs ?? this.spec.callTimeoutMs;
    // A call made while the server is being restarted waits for it (it has not reached the server).
    if (!this.#state.serving) await this.#whenReady(timeoutMs, options.signal);
    const session = this.#link.sessionId;
    try {
      return await this.#send(method, params, options, timeoutMs, toolName);
    } catch (error) {
      const operation = toolName === undefined ? method : `${method} ${toolName}`;
      // A 404 for a known session means the server forgot it: the spec requires a new initialize.
      // Requests on that session never reached a live one (they 404 or are cut off by the
      // re-initialize), so sending them again is safe whatever they do.
      const expired = session !== undefined && this.#link.transportKind === 'http' && (httpStatus(error) === 404 || this.#expiredSessions.has(session));
      if (expired && this.#closing === undefined && options.signal?.aborted !== true) {
        this.#expiredSessions.add(session);
        this.#logger.info('session expired (HTTP 404); re-initializing', { method });
        this.#lastError = toSwitchboardError(error, { server: this.spec.name, operation });
        if (this.#link.sessionId === session) await this.reconnect('session-expired').catch(() => {});
        else await this.#whenReady(timeoutMs, options.signal);
        try {
          return await this.#send(method, params, options, timeoutMs, toolName);
        } catch (retryError) {
          throw this.#callError(retryError, operation, options.signal);
        }
      }
      throw this.#callError(error, operation, options.signal);
    }
  }

  #send(method: string, params: Record<string, unknown> | undefined, options: CallOptions, timeoutMs: number, toolName: string | undefined): Promise<unknown> {
    const session = this.#readySession();
    const requestOptions = this.#requestOptions(options, timeoutMs);
    return toolName === undefined ? session.request(method, params, requestOptions) : session.callTool(params as unknown as ToolCallParams, requestOptions);
  }

  #requestOptions(options: CallOptions, timeoutMs: number = options.timeoutMs ?? this.spec.callTimeoutMs): LeanRequestOptions {
    if (timeoutMs === this.spec.callTimeoutMs && options.signal === undefined && options.onProgress === undefined) return this.#defaultRequestOptions;
    return {
      timeoutMs,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    };
  }

  /**
   * Closes the connection and ends the server's process group (stdin EOF → SIGTERM → SIGKILL).
   * Idempotent; safe while connecting.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const closed = closedError(this.spec.name);
      this.#health?.stop();
      this.#supervisor.close();
      this.#connectAbort?.abort(closed);
      this.#link.session?.failRequests(closed);
      try {
        await this.#connecting?.catch(() => {});
        await this.#supervisor.reconnecting?.catch(() => {});
        await this.#pendingTeardown;
        await this.#link.teardown();
      } finally {
        this.#state.set('closed');
        this.removeAllListeners();
      }
    })();
    return this.#closing;
  }

  #readySession(): McpSession {
    const session = this.#link.session;
    if (session !== undefined && this.#state.serving) return session;
    throw this.#notConnectedError();
  }

  #notConnectedError(): SwitchboardError {
    if (this.#closing !== undefined) return closedError(this.spec.name);
    return notConnectedError(this.spec.name, this.#state.value, this.#lastError, this.#state.value === 'failed' && this.#supervisor.probing);
  }

  #callError(error: unknown, operation: string, signal: AbortSignal | undefined): SwitchboardError {
    if (isSwitchboardError(error)) return error;
    const state = this.#state.value;
    if ((state === 'failed' || state === 'closed') && !(signal?.aborted ?? false)) return this.#lastError ?? closedError(this.spec.name);
    return toSwitchboardError(error, { server: this.spec.name, operation, aborted: signal?.aborted ?? false });
  }
}


/**
 * @module connection/server-connection
 * One MCP server, connected correctly: the handshake for every protocol era (2025 `initialize` →
 * `notifications/initialized`, or the 2026-07-28 `server/discover` probe when asked), a start-up
 * deadline that covers spawn and handshake, per-call deadlines, cancellation and progress, automatic
 * fallback from Streamable HTTP to legacy SSE, every content item kept, and a `close()` that leaves no
 * process behind.
 *
 * The SDK `Client` owns the handshake, server→client requests and notifications. On 2025-era
 * connections, requests go through {@link LeanRequester} on the same transport (see its module doc).
 * Stdio servers in legacy mode without server→client handlers run on {@link LeanClient} instead, and
 * the SDK is then never loaded (it is imported lazily, by {@link loadClientSdk}, when needed).
 */

import type { AuthProvider, Client, ClientCapabilities, FetchLike, JSONRPCMessage, OAuthClientProvider, Transport } from '@modelcontextprotocol/client';
import type { OAuthClientOptions } from '../auth/create-oauth-authorizer.js';
import type { OAuthAuthorizer } from '../auth/oauth-authorizer.js';
import type { HttpServerSpec, ServerSpec, StdioServerSpec } from '../config/server-spec.js';
import { clientCapabilities } from './client-capabilities.js';
import { guardedElicitation } from './url-elicitation.js';
import type { TraceContext } from './trace-context.js';
import { DEFAULT_HEALTH_CHECK_POLICY, DEFAULT_RESTART_POLICY, DEFAULT_STDIO_PROBE_TIMEOUT_MS } from '../config/server-spec.js';
import { ErrorCode, SwitchboardError, isSwitchboardError } from '../errors.js';
import { isDebugEnabled, noopLogger, type Logger } from '../logger.js';
import { normalizeToolResult } from '../result/normalize-tool-result.js';
import type { ToolResult } from '../result/tool-result.js';
import { RpcError, toSwitchboardError } from '../to-switchboard-error.js';
import { backoffDelay } from '../util/backoff.js';
import { TypedEmitter } from '../util/typed-emitter.js';
import { VERSION } from '../version.js';
import { loadClientSdk } from './client-sdk.js';
import { createHttpTransport, createStdioTransport, type TransportKind } from './create-transport.js';
import { LEGACY_PROTOCOL_VERSIONS, LeanClient } from './lean-client.js';
import { LeanRequester, type LeanRequestOptions, type ProgressUpdate, type RpcErrorPayload } from './lean-requester.js';
import {
  LIST_METHODS,
  invalidListItem,
  type GetPromptResult,
  type ListKind,
  type PromptDefinition,
  type ReadResourceResult,
  type ResourceDefinition,
  type ResourceTemplateDefinition,
  type ServerInfo,
  type ToolDefinition,
} from './mcp-types.js';
import { createMessageTrace } from './message-trace.js';
import type { ServerState } from './server-state.js';
import { sharedStartLimiter, type StartLimiter } from './start-limiter.js';
import { startWithinDeadline, type StartTiming } from './start-within-deadline.js';
import { StdioProcessTransport } from './stdio-process-transport.js';
import { TappedStdioTransport, TappedTransport, type TransportTap } from './tapped-transport.js';

/** How long a start-up failure waits for the child's exit status, to report it. */
const EXIT_STATUS_WAIT_MS = 500;

/** Pages followed at most when listing, against a server whose cursor never ends. @default 64 */
export const MAX_LIST_PAGES = 64;

/** A handler for server→client requests (elicitation, sampling, roots). */
export type ServerRequestHandler = (params: Record<string, unknown>, context: { server: string; signal: AbortSignal }) => Promise<Record<string, unknown>>;

/** Options of a {@link ServerConnection}. */
export interface ServerConnectionOptions {
  /** @default noopLogger */
  logger?: Logger;
  /** Sent as `clientInfo`. @default { name: 'mcp-switchboard', version } */
  clientInfo?: { name: string; version: string };
  /** Answers `elicitation/create`; the capability is declared only when given. */
  onElicitation?: ServerRequestHandler;
  /** Answers `sampling/createMessage`; the capability is declared only when given. */
  onSampling?: ServerRequestHandler;
  /** `onElicitation` shows URL-mode elicitations too (declares `elicitation.url`). */
  urlElicitation?: boolean;
  /** Extensions declared to every server (`capabilities.extensions`), e.g. MCP Apps' `io.modelcontextprotocol/ui`. */
  extensions?: Record<string, Record<string, unknown>>;
  /** Answers `roots/list`; the capability is declared only when given. */
  roots?: () => Promise<Array<{ uri: string; name?: string }>>;
  /** A fetch for HTTP servers (e.g. one that pins resolved addresses). */
  fetch?: FetchLike;
  /** Credentials for HTTP servers that require authorization (used as given; `oauth` is then ignored). */
  authProvider?: AuthProvider | OAuthClientProvider;
  /**
   * OAuth for HTTP servers: the token store and how a login completes. Servers with `oauth:` in their
   * entry use it always; with this option, every HTTP server without an Authorization header does.
   */
  oauth?: OAuthClientOptions;
  /**
   * Send requests on 2025-era connections through the lean path instead of the SDK's `request()`.
   * @default true
   */
  leanRequests?: boolean;
  /** Bounds concurrent process starts; a start's deadline runs from its spawn. @default sharedStartLimiter() */
  startLimiter?: StartLimiter;
}

/** Options of one call. */
export interface CallOptions {
  signal?: AbortSignal;
  /** @default the server's `callTimeout` */
  timeoutMs?: number;
  /** Progress notifications of this call; each also restarts the deadline. */
  onProgress?: (progress: ProgressUpdate) => void;
  /** Keys added to the request's `_meta` (tools/call), e.g. the W3C trace context. */
  meta?: Record<string, unknown>;
  /** The trace the call belongs to (arrived with the caller's own request); continued to the server. */
  traceContext?: TraceContext;
}

/** Events of a {@link ServerConnection}. */
export interface ServerConnectionEvents {
  'state-change': { server: string; from: ServerState; to: ServerState; error?: SwitchboardError };
  'list-changed': { server: string; kind: 'tools' | 'prompts' | 'resources' };
  'resource-updated': { server: string; uri: string };
  log: { server: string; level: string; logger?: string; data: unknown };
  stderr: { server: string; line: string };
  /** The connection ended without `close()` (the process died, the stream broke). */
  disconnected: { server: string; error: SwitchboardError; restarting: boolean };
  /** A restart or reconnect succeeded. */
  reconnected: { server: string; attempt: number; reason: string };
}

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
  #state: ServerState = 'connecting';
  #client: Client | LeanClient | undefined;
  #transport: Transport | undefined;
  #stdio: StdioProcessTransport | undefined;
  #lean: LeanRequester | undefined;
  #transportKind: TransportKind | undefined;
  #lastError: SwitchboardError | undefined;
  #connecting: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  #connectAbort: AbortController | undefined;
  #readyAt: number | undefined;
  #pendingTeardown: Promise<void> | undefined;
  #reconnecting: Promise<void> | undefined;
  #everReady = false;
  #lastStart: StartTiming | undefined;
  /** The deadline of the start attempt under way (the first may be longer, see ServerSpec.firstStartTimeoutMs). */
  #startDeadlineMs: number;
  #restarts = 0;
  #healthTimer: NodeJS.Timeout | undefined;
  #probeTimer: NodeJS.Timeout | undefined;
  #missedPings = 0;
  #pinging = false;
  readonly #sleepers = new Set<() => void>();
  /** HTTP sessions the server forgot (404): their in-flight requests are safe to resend. */
  readonly #expiredSessions = new Set<string>();
  #oauth: OAuthAuthorizer | null | undefined;
  readonly #stderrTail: string[] = [];
  /** Request options of a call that sets none of its own (shared: the per-call path allocates less). */
  readonly #defaultRequestOptions: LeanRequestOptions;

  constructor(spec: ServerSpec, options: ServerConnectionOptions = {}) {
    super();
    this.spec = spec;
    this.#options = options;
    this.#defaultRequestOptions = { timeoutMs: spec.callTimeoutMs };
    this.#startDeadlineMs = spec.startupTimeoutMs;
    this.#logger = (options.logger ?? noopLogger).child({ server: spec.name });
    this.onListenerError = (error, event) => this.#logger.error('event listener threw', { event, error: String(error) });
  }

  /** Connects and returns the connection; rejects with a typed error (and leaves nothing running). */
  static async open(spec: ServerSpec, options: ServerConnectionOptions = {}): Promise<ServerConnection> {
    const connection = new ServerConnection(spec, options);
    await connection.connect();
    return connection;
  }

  /** The server's name in the config. */
  get name(): string {
    return this.spec.name;
  }

  get state(): ServerState {
    return this.#state;
  }

  /** The wire in use once connected (`http` or `sse` for a URL, after fallback). */
  get transportKind(): TransportKind | undefined {
    return this.#transportKind;
  }

  /** The negotiated protocol version. */
  get protocolVersion(): string | undefined {
    return this.#client?.getNegotiatedProtocolVersion();
  }

  /** `legacy` (2025 `initialize`) or `modern` (2026-07-28). */
  get protocolEra(): 'legacy' | 'modern' | undefined {
    return this.#client?.getProtocolEra();
  }

  get serverInfo(): ServerInfo | undefined {
    return this.#client?.getServerVersion() as ServerInfo | undefined;
  }

  get capabilities(): Record<string, unknown> | undefined {
    return this.#client?.getServerCapabilities() as Record<string, unknown> | undefined;
  }

  get instructions(): string | undefined {
    return this.#client?.getInstructions();
  }

  /** The last error (start-up failure or disconnect). */
  get lastError(): SwitchboardError | undefined {
    return this.#lastError;
  }

  /** When the connection last became ready (ms since epoch). */
  get readyAt(): number | undefined {
    return this.#readyAt;
  }

  /** The last start attempt: time waiting for a start slot, time from spawn to the end of the handshake, the deadline. */
  get lastStart(): StartTiming | undefined {
    return this.#lastStart;
  }

  /** Successful restarts or reconnects since the first connect. */
  get restarts(): number {
    return this.#restarts;
  }

  /** PID of the server process (stdio), also its process group id. */
  get pid(): number | undefined {
    return this.#stdio?.pid;
  }

  /** The last lines the server wrote to stderr. */
  stderrTail(lines = 20): string[] {
    return this.#stdio?.stderr.lines(lines) ?? this.#stderrTail.slice(-lines);
  }

  /**
   * Connects within the start-up deadline. Concurrent calls share one attempt. Calling it again after
   * a failure (or while the circuit is open) makes a new attempt at once.
   */
  connect(options: { signal?: AbortSignal } = {}): Promise<void> {
    if (this.#closing !== undefined) return Promise.reject(this.#closedError());
    if (this.#state === 'ready' || this.#state === 'degraded') return Promise.resolve();
    if (this.#reconnecting !== undefined) return this.#reconnecting;
    this.#connecting ??= this.#connect(options.signal).finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  async #connect(signal: AbortSignal | undefined): Promise<void> {
    this.#clearProbe();
    this.#setState('connecting');
    try {
      await this.#establish(signal);
      this.#becameReady();
    } catch (error) {
      const mapped = error as SwitchboardError;
      this.#lastError = mapped;
      if (this.#closing === undefined) this.#setState('failed', mapped);
      throw mapped;
    }
  }

  /**
   * One attempt at a session (transport + handshake) within the start-up deadline. Leaves the state
   * alone; on failure the session is torn down (without waiting) and a mapped error is thrown.
   */
  async #establish(signal: AbortSignal | undefined): Promise<void> {
    const abort = new AbortController();
    this.#connectAbort = abort;
    const onOuterAbort = (): void => abort.abort(signal?.reason);
    signal?.addEventListener('abort', onOuterAbort, { once: true });
    try {
      await this.#pendingTeardown;
      // The deadline runs from the spawn: waiting behind other servers' starts does not count.
      this.#startDeadlineMs = this.#everReady ? this.spec.startupTimeoutMs : (this.spec.firstStartTimeoutMs ?? this.spec.startupTimeoutMs);
      await startWithinDeadline(
        {
          limiter: this.spec.type === 'stdio' ? (this.#options.startLimiter ?? sharedStartLimiter()) : undefined,
          deadlineMs: this.#startDeadlineMs,
          abort,
          deadlineError: () => new DeadlineExceeded(),
          onTiming: (timing) => (this.#lastStart = timing),
        },
        () => (this.spec.type === 'stdio' ? this.#connectStdio(this.spec, abort.signal) : this.#connectHttp(this.spec, abort.signal)),
      );
      if (this.#closing !== undefined) throw this.#closedError();
    } catch (error) {
      // A server that dies at start closes stdout a moment before its exit status is known.
      if (this.#stdio !== undefined && !(abort.signal.reason instanceof DeadlineExceeded) && isConnectionLoss(error)) {
        await this.#stdio.waitForExit(EXIT_STATUS_WAIT_MS);
      }
      const mapped = this.#startError(error, abort.signal);
      // Not awaited: a hung server may take seconds to end, and the caller should hear of the failure
      // now. close() and the next attempt wait for it.
      this.#pendingTeardown = this.#teardown().catch((teardownError: unknown) =>
        this.#logger.debug('error while ending a failed server', { error: String(teardownError) }),
      );
      throw mapped;
    } finally {
      signal?.removeEventListener('abort', onOuterAbort);
      this.#connectAbort = undefined;
    }
  }

  #becameReady(reason = 'probe', attempt = 1): void {
    const again = this.#everReady;
    this.#readyAt = Date.now();
    this.#lastError = undefined;
    this.#everReady = true;
    this.#missedPings = 0;
    this.#setState('ready');
    this.#startHealthChecks();
    this.#logger.debug('connected', { protocolVersion: this.protocolVersion, transport: this.#transportKind, serverInfo: this.serverInfo });
    if (again) {
      this.#restarts++;
      this.emit('reconnected', { server: this.spec.name, attempt, reason });
    }
  }

  /** Restarts (stdio) or reconnects (HTTP) now, sharing one attempt between concurrent callers. */
  reconnect(reason = 'requested'): Promise<void> {
    if (this.#closing !== undefined) return Promise.reject(this.#closedError());
    this.#reconnecting ??= this.#reconnectLoop(reason, true).finally(() => (this.#reconnecting = undefined));
    return this.#reconnecting;
  }

  /**
   * Attempts with exponential backoff and jitter until one succeeds or the restart policy's attempts
   * are spent; then the state is `failed` (circuit open) and one probe is made every
   * `probeIntervalMs`. Other servers are never affected.
   */
  async #reconnectLoop(reason: string, immediate: boolean): Promise<void> {
    const policy = this.spec.restart === false ? undefined : (this.spec.restart ?? DEFAULT_RESTART_POLICY);
    const attempts = policy?.attempts ?? 1;
    this.#stopHealthChecks();
    this.#clearProbe();
    this.#setState('reconnecting', this.#lastError);
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (this.#closing !== undefined) throw this.#closedError();
      if (attempt > 0 || !immediate) {
        const delay = backoffDelay(attempt, { initialMs: policy?.delayMs ?? 0, maxMs: policy?.maxDelayMs ?? 0 });
        await this.#sleep(delay);
        if (this.#closing !== undefined) throw this.#closedError();
      }
      try {
        await this.#teardown();
        await this.#establish(undefined);
        this.#becameReady(reason, attempt + 1);
        return;
      } catch (error) {
        this.#lastError = error as SwitchboardError;
        this.#logger.warn('reconnect attempt failed', { attempt: attempt + 1, of: attempts, error: this.#lastError.message });
      }
    }
    if (this.#closing !== undefined) throw this.#closedError();
    this.#setState('failed', this.#lastError);
    if (policy !== undefined) this.#scheduleProbe(policy.probeIntervalMs);
    throw this.#lastError ?? this.#closedError();
  }

  #scheduleProbe(delayMs: number): void {
    this.#clearProbe();
    this.#probeTimer = setTimeout(() => {
      this.#probeTimer = undefined;
      if (this.#closing !== undefined || this.#state !== 'failed') return;
      this.connect().catch(() => this.#scheduleProbe(delayMs));
    }, delayMs);
    this.#probeTimer.unref();
  }

  #clearProbe(): void {
    if (this.#probeTimer !== undefined) clearTimeout(this.#probeTimer);
    this.#probeTimer = undefined;
  }

  /** A delay that ends early when the connection is closed. */
  #sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.#sleepers.add(done);
    });
  }

  #startHealthChecks(): void {
    this.#stopHealthChecks();
    const policy = this.spec.healthCheck === false ? undefined : (this.spec.healthCheck ?? DEFAULT_HEALTH_CHECK_POLICY);
    // The 2026-07-28 era has no ping.
    if (policy === undefined || this.protocolEra !== 'legacy') return;
    this.#healthTimer = setInterval(() => void this.#checkHealth(policy), policy.intervalMs);
    this.#healthTimer.unref();
  }

  #stopHealthChecks(): void {
    if (this.#healthTimer !== undefined) clearInterval(this.#healthTimer);
    this.#healthTimer = undefined;
  }

  async #checkHealth(policy: { timeoutMs: number; misses: number }): Promise<void> {
    if (this.#pinging || (this.#state !== 'ready' && this.#state !== 'degraded')) return;
    this.#pinging = true;
    try {
      await this.request('ping', undefined, { timeoutMs: policy.timeoutMs });
      this.#missedPings = 0;
      if (this.#state === 'degraded') this.#setState('ready');
    } catch (error) {
      if (this.#state !== 'ready' && this.#state !== 'degraded') return;
      this.#missedPings++;
      const mapped = toSwitchboardError(error, { server: this.spec.name });
      this.#logger.warn('health check missed', { missed: this.#missedPings, of: policy.misses, error: mapped.message });
      if (this.#missedPings >= policy.misses) {
        this.#lastError = new SwitchboardError(ErrorCode.ServerDisconnected, `server "${this.spec.name}" missed ${this.#missedPings} health checks in a row`, {
          server: this.spec.name,
          cause: mapped,
        });
        this.reconnect('health-check').catch(() => {});
      } else {
        this.#setState('degraded', mapped);
      }
    } finally {
      this.#pinging = false;
    }
  }

  /** Waits until the server is ready again (bounded by `timeoutMs` and `signal`); throws if it is not. */
  async #whenReady(timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
    if (this.#state === 'ready' || this.#state === 'degraded') return;
    const waiting = this.#reconnecting ?? this.#connecting;
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
    if (!this.#isReady()) throw this.#notConnectedError();
  }

  #isReady(): boolean {
    return this.#state === 'ready' || this.#state === 'degraded';
  }

  async #connectStdio(spec: StdioServerSpec, signal: AbortSignal): Promise<void> {
    const stdio = createStdioTransport(spec, this.#logger, (line) => this.emit('stderr', { server: spec.name, line }));
    this.#stdio = stdio;
    this.#transportKind = 'stdio';
    const transport = new TappedStdioTransport(stdio, this.#tap());
    if (this.#canUseLeanClient(spec)) {
      // Without debug tracing, per-call messages skip the tap and are written without a promise.
      const send = isDebugEnabled(this.#logger) ? undefined : (message: JSONRPCMessage) => stdio.sendNow(message);
      await this.#handshake(this.#createLeanClient(send), transport, signal);
      return;
    }
    const client = await this.#createClient(spec.protocol === 'legacy' ? undefined : spec.protocol, DEFAULT_STDIO_PROBE_TIMEOUT_MS);
    await this.#handshake(client, transport, signal);
  }

  /** The OAuth layer of this connection (kept across reconnects, so are its tokens), if it has one. */
  get oauth(): OAuthAuthorizer | undefined {
    return this.#oauth ?? undefined;
  }

  /**
   * The OAuth layer, created on first need (its module loads the SDK's OAuth client). Undefined for
   * stdio servers, and when an `authProvider` is given or the server needs no OAuth settings.
   */
  async oauthAuthorizer(): Promise<OAuthAuthorizer | undefined> {
    if (this.#oauth === undefined) {
      if (this.spec.type !== 'http' || this.#options.authProvider !== undefined) {
        this.#oauth = null;
      } else {
        const { createOAuthAuthorizer } = await import('../auth/create-oauth-authorizer.js');
        this.#oauth ??= createOAuthAuthorizer(this.spec, this.#options.oauth, { fetch: this.#options.fetch ?? globalThis.fetch, logger: this.#logger }) ?? null;
      }
    }
    return this.#oauth ?? undefined;
  }

  async #connectHttp(spec: HttpServerSpec, signal: AbortSignal): Promise<void> {
    const fetch = (await this.oauthAuthorizer())?.fetch ?? this.#options.fetch;
    const httpOptions = {
      logger: this.#logger,
      ...(fetch === undefined ? {} : { fetch }),
      ...(this.#options.authProvider === undefined ? {} : { authProvider: this.#options.authProvider }),
    };
    if (spec.transport !== 'sse') {
      this.#transportKind = 'http';
      const client = await this.#createClient(spec.protocol === 'legacy' ? undefined : spec.protocol, undefined);
      const transport = new TappedTransport(await createHttpTransport('http', spec, httpOptions), this.#tap());
      try {
        await this.#handshake(client, transport, signal);
        return;
      } catch (error) {
        if (spec.transport === 'http' || signal.aborted || !shouldFallBackToSse(error)) throw error;
        this.#logger.info('Streamable HTTP refused, falling back to legacy SSE', { status: httpStatus(error) });
        await this.#teardown();
      }
    }
    // An SSE fallback must use a 2025 (legacy-mode) client: SSE servers predate 2026-07-28.
    this.#transportKind = 'sse';
    const client = await this.#createClient(undefined, undefined);
    const transport = new TappedTransport(await createHttpTransport('sse', spec, httpOptions), this.#tap());
    await this.#handshake(client, transport, signal);
  }

  /** The SDK-free session serves stdio, the 2025 era, and no server→client requests but ping. */
  #canUseLeanClient(spec: StdioServerSpec): boolean {
    const { leanRequests, onElicitation, onSampling, roots } = this.#options;
    return spec.protocol === 'legacy' && leanRequests !== false && onElicitation === undefined && onSampling === undefined && roots === undefined;
  }

  #createLeanClient(send: ((message: JSONRPCMessage) => void) | undefined): LeanClient {
    const server = this.spec.name;
    return new LeanClient({
      clientInfo: this.#options.clientInfo ?? { name: 'mcp-switchboard', version: VERSION },
      capabilities: clientCapabilities(this.#options),
      serverName: server,
      ...(send === undefined ? {} : { send }),
      onRpcError: (error, method) => rpcError(error, server, method),
      onNotification: (method, params) => this.#onNotification(method, params),
      onError: (error) => this.#logger.debug('protocol error', { error: error.message }),
    });
  }

  /** Notifications on the lean session, checked as the SDK's handlers would see them. */
  #onNotification(method: string, params: Record<string, unknown>): void {
    const server = this.spec.name;
    switch (method) {
      case 'notifications/tools/list_changed':
        this.emit('list-changed', { server, kind: 'tools' });
        break;
      case 'notifications/prompts/list_changed':
        this.emit('list-changed', { server, kind: 'prompts' });
        break;
      case 'notifications/resources/list_changed':
        this.emit('list-changed', { server, kind: 'resources' });
        break;
      case 'notifications/resources/updated':
        if (typeof params.uri === 'string') this.emit('resource-updated', { server, uri: params.uri });
        break;
      case 'notifications/message':
        if (typeof params.level === 'string') {
          this.emit('log', { server, level: params.level, ...(typeof params.logger === 'string' ? { logger: params.logger } : {}), data: params.data });
        }
        break;
    }
  }

  async #createClient(mode: ServerSpec['protocol'] | undefined, probeTimeoutMs: number | undefined): Promise<Client> {
    const { Client } = await loadClientSdk();
    const capabilities = clientCapabilities(this.#options) as ClientCapabilities;
    const negotiation =
      mode === undefined || mode === 'legacy'
        ? undefined
        : { mode: mode === 'auto' ? ('auto' as const) : mode, ...(probeTimeoutMs === undefined ? {} : { probe: { timeoutMs: probeTimeoutMs } }) };
    const client = new Client(this.#options.clientInfo ?? { name: 'mcp-switchboard', version: VERSION }, {
      capabilities,
      ...(negotiation === undefined ? {} : { versionNegotiation: negotiation }),
    });
    const server = this.spec.name;
    client.onerror = (error) => this.#logger.debug('protocol error', { error: error.message });
    client.setNotificationHandler('notifications/tools/list_changed', () => this.emit('list-changed', { server, kind: 'tools' }));
    client.setNotificationHandler('notifications/prompts/list_changed', () => this.emit('list-changed', { server, kind: 'prompts' }));
    client.setNotificationHandler('notifications/resources/list_changed', () => this.emit('list-changed', { server, kind: 'resources' }));
    client.setNotificationHandler('notifications/resources/updated', (notification) =>
      this.emit('resource-updated', { server, uri: notification.params.uri }),
    );
    client.setNotificationHandler('notifications/message', (notification) => {
      const { level, logger, data } = notification.params;
      this.emit('log', { server, level, ...(logger === undefined ? {} : { logger }), data });
    });
    const { onElicitation, onSampling, roots } = this.#options;
    if (onElicitation !== undefined) {
      client.setRequestHandler('elicitation/create', async (request, context) =>
        (await onElicitation(guardedElicitation(request.params as Record<string, unknown>, server, this.#options.urlElicitation === true), { server, signal: context.mcpReq.signal })) as never,
      );
    }
    if (onSampling !== undefined) {
      client.setRequestHandler('sampling/createMessage', async (request, context) =>
        (await onSampling(request.params as Record<string, unknown>, { server, signal: context.mcpReq.signal })) as never,
      );
    }
    if (roots !== undefined) client.setRequestHandler('roots/list', async () => ({ roots: await roots() }));
    return client;
  }

  async #handshake(client: Client | LeanClient, transport: TappedTransport, signal: AbortSignal): Promise<void> {
    this.#client = client;
    this.#transport = transport;
    // The lean session's requester carries the handshake too, so it takes responses from the start.
    this.#lean = client instanceof LeanClient ? client.requester : undefined;
    signal.throwIfAborted();
    const aborted = new Promise<never>((_, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    aborted.catch(() => {});
    await Promise.race([client.connect(transport, { signal, timeout: this.#startDeadlineMs }), aborted]);
    if (!(client instanceof LeanClient) && client.getProtocolEra() === 'legacy' && this.#options.leanRequests !== false) {
      this.#lean = new LeanRequester((message) => transport.send(message), this.spec.name, (error, method) => rpcError(error, this.spec.name, method));
    }
  }

  #tap(): TransportTap {
    const trace = createMessageTrace(this.spec, this.#logger);
    return {
      intercept: (message) => this.#lean?.intercept(message) ?? false,
      ...(trace === undefined ? {} : { trace }),
      // Only the current transport's close matters; an old one closing after a fallback does not.
      closed: (transport) => {
        if (transport === this.#transport) this.#onTransportClosed();
      },
    };
  }

  #onTransportClosed(): void {
    // Calls in flight reject now, not at their deadline.
    this.#lean?.close(this.#disconnectError());
    if (this.#closing !== undefined || (this.#state !== 'ready' && this.#state !== 'degraded')) return;
    this.#stopHealthChecks();
    const restart = this.spec.restart !== false;
    this.#lastError = this.#disconnectError();
    this.#setState(restart ? 'reconnecting' : 'failed', this.#lastError);
    this.#reconnecting ??= this.#afterDisconnect(restart).finally(() => (this.#reconnecting = undefined));
    this.#reconnecting.catch(() => {});
  }

  async #afterDisconnect(restart: boolean): Promise<void> {
    // stdout closes a moment before the exit status is known; wait briefly to report it.
    await this.#stdio?.waitForExit(EXIT_STATUS_WAIT_MS);
    const error = this.#disconnectError();
    this.#lastError = error;
    this.#logger.warn('server disconnected', { reason: error.message, restarting: restart });
    this.emit('disconnected', { server: this.spec.name, error, restarting: restart });
    // A crashed child may leave grandchildren behind; end the group.
    await this.#teardown();
    if (restart && this.#closing === undefined) await this.#reconnectLoop('disconnected', false);
  }

  /** Tools, following pagination. Servers without the tools capability have none. */
  listTools(options: CallOptions = {}): Promise<ToolDefinition[]> {
    return this.#list('tools', options) as Promise<ToolDefinition[]>;
  }

  /** Resources, following pagination. */
  listResources(options: CallOptions = {}): Promise<ResourceDefinition[]> {
    return this.#list('resources', options) as Promise<ResourceDefinition[]>;
  }

  /** Resource templates, following pagination. */
  listResourceTemplates(options: CallOptions = {}): Promise<ResourceTemplateDefinition[]> {
    return this.#list('resourceTemplates', options) as Promise<ResourceTemplateDefinition[]>;
  }

  /** Prompts, following pagination. */
  listPrompts(options: CallOptions = {}): Promise<PromptDefinition[]> {
    return this.#list('prompts', options) as Promise<PromptDefinition[]>;
  }

  async #list(kind: ListKind, options: CallOptions): Promise<unknown[]> {
    const capability = kind === 'resourceTemplates' ? 'resources' : kind;
    if (!this.#isReady()) await this.#whenReady(options.timeoutMs ?? this.spec.callTimeoutMs, options.signal);
    const capabilities = this.#readyClient().getServerCapabilities() as Record<string, unknown> | undefined;
    if (capabilities?.[capability] === undefined) return [];
    const { method, field } = LIST_METHODS[kind];
    if (kind === 'tools' && this.protocolEra === 'modern') return this.#listModernTools(options);
    const items: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const result = await this.request(method, cursor === undefined ? undefined : { cursor }, options);
      const list = (result as Record<string, unknown> | undefined)?.[field];
      if (!Array.isArray(list)) throw this.#invalidResult(method, `\`${field}\` is not an array`);
      for (const item of list) {
        const problem = invalidListItem(kind, item);
        if (problem === undefined) items.push(item);
        else this.#logger.warn(`ignored an invalid entry in ${method}`, { problem, name: (item as { name?: unknown } | null)?.name });
      }
      const next = (result as { nextCursor?: unknown }).nextCursor;
      if (typeof next !== 'string' || next === '' || next === cursor) return items;
      cursor = next;
    }
    throw this.#invalidResult(method, `pagination did not end after ${MAX_LIST_PAGES} pages`);
  }

  /**
   * Tools of a 2026-07-28 connection, through the SDK's own `listTools`: it drops tools whose
   * `x-mcp-header` declarations are invalid (SEP-2243) and keeps the definitions `callTool` needs to
   * mirror those arguments into `Mcp-Param-*` headers (and to check structured output).
   * `cacheMode: 'refresh'`: every listing still asks the server, as on other connections.
   */
  async #listModernTools(options: CallOptions): Promise<unknown[]> {
    const client = this.#readyClient();
    if (client instanceof LeanClient) throw new SwitchboardError(ErrorCode.Internal, `server "${this.spec.name}": a 2026-07-28 session runs on the SDK client`);
    let tools: unknown[];
    try {
      const result = await client.listTools(undefined, {
        cacheMode: 'refresh',
        timeout: options.timeoutMs ?? this.spec.callTimeoutMs,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      tools = result.tools;
    } catch (error) {
      throw this.#callError(error, 'tools/list', options.signal);
    }
    return tools.filter((item) => {
      const problem = invalidListItem('tools', item);
      if (problem !== undefined) this.#logger.warn('ignored an invalid entry in tools/list', { problem, name: (item as { name?: unknown } | null)?.name });
      return problem === undefined;
    });
  }

  /** Calls a tool. A result with `isError: true` is returned, not thrown. */
  async callTool(name: string, args: Record<string, unknown> = {}, options: CallOptions = {}): Promise<ToolResult> {
    // A call made while the server is being restarted waits for it (it has not reached the server).
    if (!this.#isReady()) await this.#whenReady(options.timeoutMs ?? this.spec.callTimeoutMs, options.signal);
    const client = this.#readyClient();
    const lean = this.#lean;
    if (lean === undefined) {
      if (client instanceof LeanClient) throw new SwitchboardError(ErrorCode.Internal, `server "${this.spec.name}": the lean session has no requester`);
      try {
        const result = await client.callTool(
          { name, arguments: args, ...(options.meta === undefined ? {} : { _meta: options.meta }) },
          {
            timeout: options.timeoutMs ?? this.spec.callTimeoutMs,
            resetTimeoutOnProgress: true,
            ...(options.signal === undefined ? {} : { signal: options.signal }),
            ...(options.onProgress === undefined ? {} : { onprogress: options.onProgress }),
          },
        );
        return normalizeToolResult(result, this.spec.name);
      } catch (error) {
        throw this.#callError(error, `tools/call ${name}`, options.signal);
      }
    }
    const raw = await this.#request('tools/call', { name, arguments: args, ...(options.meta === undefined ? {} : { _meta: options.meta }) }, options, name);
    return normalizeToolResult(raw, this.spec.name);
  }

  /** Reads a resource. */
  async readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    const result = await this.request('resources/read', { uri }, options);
    if (!Array.isArray((result as { contents?: unknown } | undefined)?.contents)) throw this.#invalidResult('resources/read', '`contents` is not an array');
    return result as ReadResourceResult;
  }

  /** Gets a prompt with its arguments filled in. */
  async getPrompt(name: string, args: Record<string, string> = {}, options: CallOptions = {}): Promise<GetPromptResult> {
    const result = await this.request('prompts/get', { name, arguments: args }, options);
    if (!Array.isArray((result as { messages?: unknown } | undefined)?.messages)) throw this.#invalidResult('prompts/get', '`messages` is not an array');
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

  /** `toolName` names the tool in errors of `tools/call` (the string is built only on failure). */
  async #request(method: string, params: Record<string, unknown> | undefined, options: CallOptions, toolName: string | undefined): Promise<unknown> {
    const timeoutMs = options.timeoutMs ?? this.spec.callTimeoutMs;
    if (!this.#isReady()) await this.#whenReady(timeoutMs, options.signal);
    const session = this.#transport?.sessionId;
    try {
      return await this.#send(method, params, options, timeoutMs);
    } catch (error) {
      const operation = toolName === undefined ? method : `${method} ${toolName}`;
      // A 404 for a known session means the server forgot it: the spec requires a new initialize.
      // Requests on that session never reached a live one (they 404 or are cut off by the
      // re-initialize), so sending them again is safe whatever they do.
      const expired = session !== undefined && this.#transportKind === 'http' && (httpStatus(error) === 404 || this.#expiredSessions.has(session));
      if (expired && this.#closing === undefined && options.signal?.aborted !== true) {
        this.#expiredSessions.add(session);
        this.#logger.info('session expired (HTTP 404); re-initializing', { method });
        this.#lastError = toSwitchboardError(error, { server: this.spec.name, operation });
        if (this.#transport?.sessionId === session) await this.reconnect('session-expired').catch(() => {});
        else await this.#whenReady(timeoutMs, options.signal);
        try {
          return await this.#send(method, params, options, timeoutMs);
        } catch (retryError) {
          throw this.#callError(retryError, operation, options.signal);
        }
      }
      throw this.#callError(error, operation, options.signal);
    }
  }

  async #send(method: string, params: Record<string, unknown> | undefined, options: CallOptions, timeoutMs: number): Promise<unknown> {
    const client = this.#readyClient();
    if (this.#lean !== undefined) return this.#lean.request(method, params, this.#leanOptions(options, timeoutMs));
    if (client instanceof LeanClient) throw new SwitchboardError(ErrorCode.Internal, `server "${this.spec.name}": the lean session has no requester`);
    return client.request({ method, ...(params === undefined ? {} : { params }) } as never, {
      timeout: timeoutMs,
      resetTimeoutOnProgress: true,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onProgress === undefined ? {} : { onprogress: options.onProgress }),
    });
  }

  #leanOptions(options: CallOptions, timeoutMs: number = options.timeoutMs ?? this.spec.callTimeoutMs): LeanRequestOptions {
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
      this.#stopHealthChecks();
      this.#clearProbe();
      for (const wake of this.#sleepers) wake();
      this.#connectAbort?.abort(this.#closedError());
      this.#lean?.close(this.#closedError());
      try {
        await this.#connecting?.catch(() => {});
        await this.#reconnecting?.catch(() => {});
        await this.#pendingTeardown;
        await this.#teardown();
      } finally {
        this.#setState('closed');
        this.removeAllListeners();
      }
    })();
    return this.#closing;
  }

  async #teardown(): Promise<void> {
    const client = this.#client;
    const transport = this.#transport;
    const stdio = this.#stdio;
    this.#client = undefined;
    this.#transport = undefined;
    // Requests still waiting on the old session will never be answered there.
    this.#lean?.close(this.#disconnectError());
    this.#lean = undefined;
    try {
      await client?.close();
    } catch (error) {
      this.#logger.debug('error while closing the client', { error: String(error) });
    } finally {
      try {
        await transport?.close();
      } finally {
        // The SDK may not have started the transport (e.g. the probe failed first).
        if (stdio !== undefined) {
          this.#stderrTail.splice(0, this.#stderrTail.length, ...stdio.stderr.lines());
          await stdio.close();
        }
      }
    }
  }

  #readyClient(): Client | LeanClient {
    const client = this.#client;
    if (client !== undefined && (this.#state === 'ready' || this.#state === 'degraded')) return client;
    throw this.#notConnectedError();
  }

  #notConnectedError(): SwitchboardError {
    if (this.#closing !== undefined) return this.#closedError();
    const why = this.#lastError === undefined ? '' : `: ${stripServerPrefix(this.#lastError.message, this.spec.name)}`;
    const probing = this.#state === 'failed' && this.#probeTimer !== undefined ? ' (restarts gave up for now; it will be probed again)' : '';
    return new SwitchboardError(ErrorCode.ServerDisconnected, `server "${this.spec.name}" is not connected (${this.#state})${why}${probing}`, {
      server: this.spec.name,
      ...(this.#lastError === undefined ? {} : { cause: this.#lastError, details: this.#lastError.details }),
    });
  }

  #setState(to: ServerState, error?: SwitchboardError): void {
    const from = this.#state;
    if (from === to) return;
    this.#state = to;
    this.emit('state-change', { server: this.spec.name, from, to, ...(error === undefined ? {} : { error }) });
  }

  #closedError(): SwitchboardError {
    return new SwitchboardError(ErrorCode.ServerDisconnected, `server "${this.spec.name}": the connection was closed`, { server: this.spec.name });
  }

  #disconnectError(): SwitchboardError {
    const exit = this.#stdio?.exit;
    const how =
      exit === undefined
        ? 'the connection to the server closed'
        : exit.signal !== null
          ? `the server process was killed by ${exit.signal}`
          : `the server process exited with code ${exit.code}`;
    const stderr = this.#stdio?.stderr.tail(10);
    return new SwitchboardError(ErrorCode.ServerDisconnected, `server "${this.spec.name}": ${how}`, {
      server: this.spec.name,
      details: { ...(exit === undefined ? {} : { exitCode: exit.code, signal: exit.signal }), ...(stderr ? { stderr } : {}) },
    });
  }

  #callError(error: unknown, operation: string, signal: AbortSignal | undefined): SwitchboardError {
    if (isSwitchboardError(error)) return error;
    if (this.#state === 'failed' || this.#state === 'closed') {
      const closed = this.#lastError ?? this.#closedError();
      if (!(signal?.aborted ?? false)) return closed;
    }
    return toSwitchboardError(error, { server: this.spec.name, operation, aborted: signal?.aborted ?? false });
  }

  #invalidResult(method: string, reason: string): SwitchboardError {
    return new SwitchboardError(ErrorCode.ServerRequestFailed, `server "${this.spec.name}", ${method}: invalid result: ${reason}`, {
      server: this.spec.name,
      hint: 'the server broke the MCP result format; report it to the server author',
    });
  }

  /** A start-up failure, explained: which step, what the server said, what to do. */
  #startError(error: unknown, signal: AbortSignal): SwitchboardError {
    const name = this.spec.name;
    const stderr = this.#stdio?.stderr.tail(20) ?? '';
    const details: Record<string, unknown> = { transport: this.#transportKind, ...(stderr === '' ? {} : { stderr }) };
    const exit = this.#stdio?.exit;
    if (this.#closing !== undefined) return this.#closedError();
    if (signal.reason instanceof DeadlineExceeded && exit === undefined) {
      const timeoutMs = this.#lastStart?.deadlineMs ?? this.spec.startupTimeoutMs;
      const seconds = timeoutMs / 1000;
      return new SwitchboardError(ErrorCode.ServerStartFailed, `server "${name}" did not complete the handshake within ${seconds} s`, {
        server: name,
        cause: error,
        hint:
          this.spec.type === 'stdio'
            ? 'a server that waits for input, prints its messages elsewhere, or is still downloading (npx) looks like this; raise `timeout` if it is just slow'
            : 'the server accepted the connection but did not answer initialize; check it is an MCP endpoint, or raise `timeout`',
        details: { ...details, reason: 'timeout', timeoutMs },
      });
    }
    if (exit !== undefined && isConnectionLoss(error)) {
      const how = exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
      return new SwitchboardError(ErrorCode.ServerStartFailed, `server "${name}" ${how} during start-up${stderr === '' ? '' : `; stderr:\n${indent(stderr)}`}`, {
        server: name,
        cause: error,
        hint: this.spec.type === 'stdio' ? `run it by hand to see why: ${[this.spec.command, ...this.spec.args].join(' ')}` : undefined,
        details: { ...details, reason: 'exited', exitCode: exit.code, signal: exit.signal },
      });
    }
    const mapped = toSwitchboardError(error, { server: name });
    if (mapped.code === ErrorCode.ProtocolVersionUnsupported) {
      const serverVersion = typeof mapped.details.serverVersion === 'string' ? mapped.details.serverVersion : undefined;
      const ours = LEGACY_PROTOCOL_VERSIONS.join(', ');
      return new SwitchboardError(
        ErrorCode.ProtocolVersionUnsupported,
        serverVersion === undefined
          ? `server "${name}": no protocol version in common (${mapped.message}); this client speaks ${ours}, and 2026-07-28 with protocol: auto`
          : `server "${name}" speaks protocol version ${serverVersion}; this client speaks ${ours}, and 2026-07-28 with protocol: auto`,
        {
          server: name,
          cause: error,
          hint: 'upgrade the server (or this client); for a 2026-07-28-only server set `protocol: auto`',
          details: { ...details, reason: 'protocol-version', serverVersion, supportedVersions: [...LEGACY_PROTOCOL_VERSIONS] },
        },
      );
    }
    if (mapped.code === ErrorCode.ServerUnauthorized || mapped.code === ErrorCode.ServerHttpError || mapped.code === ErrorCode.ServerStartFailed || mapped.code === ErrorCode.PolicyViolation) {
      return new SwitchboardError(mapped.code, mapped.message, {
        server: name,
        cause: error,
        ...(mapped.hint === undefined ? {} : { hint: mapped.hint }),
        details: { ...details, ...mapped.details },
      });
    }
    return new SwitchboardError(ErrorCode.ServerStartFailed, `server "${name}" failed to start: ${stripServerPrefix(mapped.message, name)}`, {
      server: name,
      cause: error,
      ...(mapped.hint === undefined ? {} : { hint: mapped.hint }),
      details: { ...details, reason: mapped.code, ...mapped.details },
    });
  }
}

/** The start-up deadline, as an abort reason we can recognise. */
class DeadlineExceeded extends Error {
  constructor() {
    super('start-up deadline exceeded');
    this.name = 'DeadlineExceeded';
  }
}

/** True for errors that mean the transport went away (as opposed to an answer we did not like). */
function isConnectionLoss(error: unknown): boolean {
  const mapped = toSwitchboardError(error);
  return mapped.code === ErrorCode.ServerDisconnected || mapped.code === ErrorCode.Internal;
}

function rpcError(error: RpcErrorPayload, server: string, method: string): SwitchboardError {
  const code = typeof error?.code === 'number' ? error.code : -32603;
  const message = typeof error?.message === 'string' ? error.message : 'unknown error';
  return toSwitchboardError(new RpcError(code, message, error?.data), { server, operation: method });
}

function shouldFallBackToSse(error: unknown): boolean {
  const status = httpStatus(error);
  // Auth failures must not be retried on another transport: they would fail the same way, later.
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403;
}

function httpStatus(error: unknown): number | undefined {
  const data = (error as { data?: unknown } | null)?.data;
  if (typeof data === 'object' && data !== null && typeof (data as { status?: unknown }).status === 'number') return (data as { status: number }).status;
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

function stripServerPrefix(message: string, name: string): string {
  const prefix = `server "${name}": `;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}

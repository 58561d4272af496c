/**
 * @module connection/server-connection
 * One MCP server, connected correctly: the handshake for every protocol era (2025 `initialize` →
 * `notifications/initialized`, or the 2026-07-28 `server/discover` probe when asked), a start-up
 * deadline that covers spawn and handshake, per-call deadlines, cancellation and progress, automatic
 * fallback from Streamable HTTP to legacy SSE, every content item kept, and a `close()` that leaves no
 * process behind.
 *
 * A facade over its parts: the link and its session ({@link ServerLink}, `session/`), the life of the
 * connection ({@link ConnectionLifecycle}: start, restart, retries, health), the one request path
 * ({@link RequestPath}), list paging ({@link listPages}) and the OAuth hook ({@link OAuthHook}).
 */

import type { OAuthAuthorizer } from '../auth/oauth-authorizer.js';
import type { ServerSpec } from '../config/server-spec.js';
import type { SwitchboardError } from '../errors.js';
import { noopLogger, type Logger } from '../logger.js';
import { normalizeToolResult } from '../result/normalize-tool-result.js';
import type { ToolResult } from '../result/tool-result.js';
import { TypedEmitter } from '../util/typed-emitter.js';
import type { CallOptions } from './call-options.js';
import { invalidResultError } from './connection-errors.js';
import type { TransportKind } from './create-transport.js';
import { ConnectionLifecycle } from './lifecycle/connection-lifecycle.js';
import { listPages, validItems } from './list-pages.js';
import type { GetPromptResult, ListKind, PromptDefinition, ReadResourceResult, ResourceDefinition, ResourceTemplateDefinition, ServerInfo, ToolDefinition } from './mcp-types.js';
import { OAuthHook } from './oauth-hook.js';
import { RequestPath } from './request-path.js';
import type { ServerConnectionEvents, ServerConnectionOptions } from './server-connection-options.js';
import { ServerLink } from './server-link.js';
import type { ServerState } from './server-state.js';
import type { StartTiming } from './start-within-deadline.js';

export type { CallOptions } from './call-options.js';
export { MAX_LIST_PAGES } from './list-pages.js';
export type { ServerConnectionEvents, ServerConnectionOptions, ServerRequestHandler } from './server-connection-options.js';

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
  readonly #logger: Logger;
  readonly #link: ServerLink;
  readonly #life: ConnectionLifecycle;
  readonly #path: RequestPath;
  readonly #oauth: OAuthHook;
  /** A `tools/call` result as callers get it (one function, not a closure per call). */
  readonly #normalize = (raw: unknown): ToolResult => normalizeToolResult(raw, this.spec.name);

  constructor(spec: ServerSpec, options: ServerConnectionOptions = {}) {
    super();
    this.spec = spec;
    const server = spec.name;
    const logger = (this.#logger = (options.logger ?? noopLogger).child({ server }));
    this.onListenerError = (error, event) => logger.error('event listener threw', { event, error: String(error) });
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
      closed: () => this.#life.linkClosed(),
      httpFetch: () => this.#oauth.fetch(),
    });
    this.#life = new ConnectionLifecycle({
      spec,
      options,
      logger,
      link: this.#link,
      emit: (event, payload) => this.emit(event, payload),
      ping: (timeoutMs) => this.request('ping', undefined, { timeoutMs }),
    });
    this.#path = new RequestPath(spec, logger, this.#link, this.#life);
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
    return this.#life.state.value;
  }

  /** The wire in use once connected (`http` or `sse` for a URL, after fallback). */
  get transportKind(): TransportKind | undefined {
    return this.#link.transportKind;
  }

  /** The negotiated protocol version. */
  get protocolVersion(): string | undefined {
    return this.#link.session?.protocolVersion;
  }

  /** `legacy` (2025 `initialize`) or `modern` (2026-07-28). */
  get protocolEra(): 'legacy' | 'modern' | undefined {
    return this.#link.session?.protocolEra;
  }

  get serverInfo(): ServerInfo | undefined {
    return this.#link.session?.serverInfo;
  }

  get capabilities(): Record<string, unknown> | undefined {
    return this.#link.session?.capabilities;
  }

  get instructions(): string | undefined {
    return this.#link.session?.instructions;
  }

  /** The last error (start-up failure or disconnect). */
  get lastError(): SwitchboardError | undefined {
    return this.#life.lastError;
  }

  /** When the connection last became ready (ms since epoch). */
  get readyAt(): number | undefined {
    return this.#life.readyAt;
  }

  /** The last start attempt: time waiting for a start slot, time from spawn to the end of the handshake, the deadline. */
  get lastStart(): StartTiming | undefined {
    return this.#life.lastStart;
  }

  /** Successful restarts or reconnects since the first connect. */
  get restarts(): number {
    return this.#life.restarts;
  }

  /** PID of the server process (stdio), also its process group id. */
  get pid(): number | undefined {
    return this.#link.stdio?.pid;
  }

  /** The last lines the server wrote to stderr. */
  stderrTail(lines = 20): string[] {
    return this.#link.stderrTail(lines);
  }

  /** The OAuth layer of this connection (kept across reconnects, so are its tokens), if it has one. */
  get oauth(): OAuthAuthorizer | undefined {
    return this.#oauth.current;
  }

  /**
   * The OAuth layer, created on first need (its module loads the SDK's OAuth client). Undefined for
   * stdio servers, and when an `authProvider` is given or the server needs no OAuth settings.
   */
  oauthAuthorizer(): Promise<OAuthAuthorizer | undefined> {
    return this.#oauth.authorizer();
  }

  /**
   * Connects within the start-up deadline. Concurrent calls share one attempt. Calling it again after
   * a failure (or while the circuit is open) makes a new attempt at once.
   */
  connect(options: { signal?: AbortSignal } = {}): Promise<void> {
    return this.#life.connect(options.signal);
  }

  /** Restarts (stdio) or reconnects (HTTP) now, sharing one attempt between concurrent callers. */
  reconnect(reason = 'requested'): Promise<void> {
    return this.#life.reconnect(reason);
  }

  /**
   * Lets background start retries begin (with `startRetry.armed: false`): a start that failed is
   * retried from now on, with backoff, and so is every later one.
   */
  armStartRetry(): void {
    this.#life.armStartRetry();
  }

  /**
   * The owner could not use the session `connect()` gave it (e.g. its tools/list failed): the session
   * ends, the state is `failed` with `error`, and the start is retried like one that failed (with
   * `startRetry`). Does nothing unless the connection is up.
   */
  rejectStart(error: SwitchboardError): void {
    this.#life.rejectStart(error);
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
    const session = await this.#path.session(options);
    if (session.capabilities?.[kind === 'resourceTemplates' ? 'resources' : kind] === undefined) return [];
    if (kind === 'tools') {
      let own: unknown[] | undefined;
      try {
        own = await session.ownToolList(this.#path.options(options));
      } catch (error) {
        throw this.#path.callError(error, 'tools/list', options.signal);
      }
      if (own !== undefined) return validItems('tools', own, this.#logger);
    }
    return listPages(kind, (method, params) => this.request(method, params, options), this.#logger, (method, problem) => invalidResultError(this.spec.name, method, problem));
  }

  /** Calls a tool. A result with `isError: true` is returned, not thrown. */
  callTool(name: string, args: Record<string, unknown> = {}, options: CallOptions = {}): Promise<ToolResult> {
    // Not `async`: one derived promise on the per-call path.
    return this.#path.request('tools/call', options.meta === undefined ? { name, arguments: args } : { name, arguments: args, _meta: options.meta }, options, name, this.#normalize);
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
    return this.#path.request(method, params, options, undefined);
  }

  /**
   * Closes the connection and ends the server's process group (stdin EOF → SIGTERM → SIGKILL).
   * Idempotent; safe while connecting.
   */
  close(): Promise<void> {
    return this.#life.close(() => this.removeAllListeners());
  }
}

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
 */

import { Client, ProtocolError, SUPPORTED_PROTOCOL_VERSIONS, type ClientCapabilities, type JSONRPCMessage } from '@modelcontextprotocol/client';
import type { AuthProvider, FetchLike, OAuthClientProvider, Transport } from '@modelcontextprotocol/client';
import type { HttpServerSpec, ServerSpec, StdioServerSpec } from '../config/server-spec.js';
import { DEFAULT_STDIO_PROBE_TIMEOUT_MS, secretValuesOf } from '../config/server-spec.js';
import { ErrorCode, SwitchboardError, isSwitchboardError } from '../errors.js';
import { isDebugEnabled, noopLogger, type Logger } from '../logger.js';
import { normalizeToolResult } from '../result/normalize-tool-result.js';
import type { ToolResult } from '../result/tool-result.js';
import { toSwitchboardError } from '../to-switchboard-error.js';
import { TypedEmitter } from '../util/typed-emitter.js';
import { VERSION } from '../version.js';
import { createHttpTransport, createStdioTransport, type TransportKind } from './create-transport.js';
import { LeanRequester, type ProgressUpdate, type RpcErrorPayload } from './lean-requester.js';
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
import { redactSecrets } from './redact.js';
import type { ServerState } from './server-state.js';
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
  /** Answers `roots/list`; the capability is declared only when given. */
  roots?: () => Promise<Array<{ uri: string; name?: string }>>;
  /** A fetch for HTTP servers (e.g. one that pins resolved addresses). */
  fetch?: FetchLike;
  /** Credentials for HTTP servers that require authorization. */
  authProvider?: AuthProvider | OAuthClientProvider;
  /**
   * Send requests on 2025-era connections through the lean path instead of the SDK's `request()`.
   * @default true
   */
  leanRequests?: boolean;
}

/** Options of one call. */
export interface CallOptions {
  signal?: AbortSignal;
  /** @default the server's `callTimeout` */
  timeoutMs?: number;
  /** Progress notifications of this call; each also restarts the deadline. */
  onProgress?: (progress: ProgressUpdate) => void;
}

/** Events of a {@link ServerConnection}. */
export interface ServerConnectionEvents {
  'state-change': { server: string; from: ServerState; to: ServerState; error?: SwitchboardError };
  'list-changed': { server: string; kind: 'tools' | 'prompts' | 'resources' };
  'resource-updated': { server: string; uri: string };
  log: { server: string; level: string; logger?: string; data: unknown };
  stderr: { server: string; line: string };
  /** The connection ended without `close()` (the process died, the stream broke). */
  disconnected: { server: string; error: SwitchboardError };
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
  #client: Client | undefined;
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
  readonly #stderrTail: string[] = [];

  constructor(spec: ServerSpec, options: ServerConnectionOptions = {}) {
    super();
    this.spec = spec;
    this.#options = options;
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

  /** PID of the server process (stdio), also its process group id. */
  get pid(): number | undefined {
    return this.#stdio?.pid;
  }

  /** The last lines the server wrote to stderr. */
  stderrTail(lines = 20): string[] {
    return this.#stdio?.stderr.lines(lines) ?? this.#stderrTail.slice(-lines);
  }

  /** Connects within the start-up deadline. Concurrent calls share one attempt. */
  connect(options: { signal?: AbortSignal } = {}): Promise<void> {
    if (this.#closing !== undefined) return Promise.reject(this.#closedError());
    if (this.#state === 'ready') return Promise.resolve();
    this.#connecting ??= this.#connect(options.signal).finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  async #connect(signal: AbortSignal | undefined): Promise<void> {
    this.#setState('connecting');
    const abort = new AbortController();
    this.#connectAbort = abort;
    const timeoutMs = this.spec.startupTimeoutMs;
    const timer = setTimeout(() => abort.abort(new DeadlineExceeded()), timeoutMs);
    const onOuterAbort = (): void => abort.abort(signal?.reason);
    signal?.addEventListener('abort', onOuterAbort, { once: true });
    try {
      if (this.spec.type === 'stdio') await this.#connectStdio(this.spec, abort.signal);
      else await this.#connectHttp(this.spec, abort.signal);
      if (this.#closing !== undefined) throw this.#closedError();
      this.#readyAt = Date.now();
      this.#lastError = undefined;
      this.#setState('ready');
      this.#logger.debug('connected', { protocolVersion: this.protocolVersion, transport: this.#transportKind, serverInfo: this.serverInfo });
    } catch (error) {
      // A server that dies at start closes stdout a moment before its exit status is known.
      if (this.#stdio !== undefined && !(abort.signal.reason instanceof DeadlineExceeded)) await this.#stdio.waitForExit(EXIT_STATUS_WAIT_MS);
      const mapped = this.#startError(error, abort.signal);
      // Not awaited: a hung server may take seconds to end, and the caller should hear of the failure
      // now. close() waits for it.
      this.#pendingTeardown = this.#teardown().catch((teardownError: unknown) =>
        this.#logger.debug('error while ending a failed server', { error: String(teardownError) }),
      );
      this.#lastError = mapped;
      if (this.#closing === undefined) this.#setState('failed', mapped);
      throw mapped;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onOuterAbort);
      this.#connectAbort = undefined;
    }
  }

  async #connectStdio(spec: StdioServerSpec, signal: AbortSignal): Promise<void> {
    const stdio = createStdioTransport(spec, this.#logger, (line) => this.emit('stderr', { server: spec.name, line }));
    this.#stdio = stdio;
    this.#transportKind = 'stdio';
    const client = this.#createClient(spec.protocol === 'legacy' ? undefined : spec.protocol, DEFAULT_STDIO_PROBE_TIMEOUT_MS);
    const transport = new TappedStdioTransport(stdio, this.#tap());
    await this.#handshake(client, transport, signal);
  }

  async #connectHttp(spec: HttpServerSpec, signal: AbortSignal): Promise<void> {
    const httpOptions = {
      logger: this.#logger,
      ...(this.#options.fetch === undefined ? {} : { fetch: this.#options.fetch }),
      ...(this.#options.authProvider === undefined ? {} : { authProvider: this.#options.authProvider }),
    };
    if (spec.transport !== 'sse') {
      this.#transportKind = 'http';
      const client = this.#createClient(spec.protocol === 'legacy' ? undefined : spec.protocol, undefined);
      const transport = new TappedTransport(createHttpTransport('http', spec, httpOptions), this.#tap());
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
    const client = this.#createClient(undefined, undefined);
    const transport = new TappedTransport(createHttpTransport('sse', spec, httpOptions), this.#tap());
    await this.#handshake(client, transport, signal);
  }

  #createClient(mode: ServerSpec['protocol'] | undefined, probeTimeoutMs: number | undefined): Client {
    const capabilities: ClientCapabilities = {};
    if (this.#options.onElicitation !== undefined) capabilities.elicitation = { form: { applyDefaults: true } };
    if (this.#options.onSampling !== undefined) capabilities.sampling = {};
    if (this.#options.roots !== undefined) capabilities.roots = { listChanged: true };
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
        (await onElicitation(request.params as Record<string, unknown>, { server, signal: context.mcpReq.signal })) as never,
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

  async #handshake(client: Client, transport: TappedTransport, signal: AbortSignal): Promise<void> {
    this.#client = client;
    this.#transport = transport;
    this.#lean = undefined;
    signal.throwIfAborted();
    const aborted = new Promise<never>((_, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    aborted.catch(() => {});
    await Promise.race([client.connect(transport, { signal, timeout: this.spec.startupTimeoutMs }), aborted]);
    if (client.getProtocolEra() === 'legacy' && this.#options.leanRequests !== false) {
      this.#lean = new LeanRequester((message) => transport.send(message), this.spec.name, (error, method) => rpcError(error, this.spec.name, method));
    }
  }

  #tap(): TransportTap {
    const secrets = secretValuesOf(this.spec);
    const trace = isDebugEnabled(this.#logger)
      ? (direction: 'in' | 'out', message: JSONRPCMessage): void =>
          this.#logger.debug(direction === 'in' ? '←' : '→', { message: redactSecrets(JSON.stringify(message), secrets) })
      : undefined;
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
    const error = this.#disconnectError();
    this.#lean?.close(error);
    if (this.#state !== 'ready' && this.#state !== 'degraded') return;
    this.#lastError = error;
    this.#logger.warn('server disconnected', { reason: error.message });
    this.#setState('failed', error);
    this.emit('disconnected', { server: this.spec.name, error });
    // A crashed child may leave grandchildren behind; end the group.
    void this.#teardown();
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
    const capabilities = this.#readyClient().getServerCapabilities() as Record<string, unknown> | undefined;
    if (capabilities?.[capability] === undefined) return [];
    const { method, field } = LIST_METHODS[kind];
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

  /** Calls a tool. A result with `isError: true` is returned, not thrown. */
  async callTool(name: string, args: Record<string, unknown> = {}, options: CallOptions = {}): Promise<ToolResult> {
    const client = this.#readyClient();
    if (this.#lean === undefined) {
      try {
        const result = await client.callTool(
          { name, arguments: args },
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
    const raw = await this.request('tools/call', { name, arguments: args }, options, `tools/call ${name}`);
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
  async request(method: string, params: Record<string, unknown> | undefined, options: CallOptions = {}, operation: string = method): Promise<unknown> {
    const client = this.#readyClient();
    const timeoutMs = options.timeoutMs ?? this.spec.callTimeoutMs;
    try {
      if (this.#lean !== undefined) {
        return await this.#lean.request(method, params, {
          timeoutMs,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
          ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
        });
      }
      return await client.request({ method, ...(params === undefined ? {} : { params }) } as never, {
        timeout: timeoutMs,
        resetTimeoutOnProgress: true,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.onProgress === undefined ? {} : { onprogress: options.onProgress }),
      });
    } catch (error) {
      throw this.#callError(error, operation, options.signal);
    }
  }

  /**
   * Closes the connection and ends the server's process group (stdin EOF → SIGTERM → SIGKILL).
   * Idempotent; safe while connecting.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#connectAbort?.abort(this.#closedError());
      this.#lean?.close(this.#closedError());
      try {
        await this.#connecting?.catch(() => {});
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

  #readyClient(): Client {
    const client = this.#client;
    if (client !== undefined && (this.#state === 'ready' || this.#state === 'degraded')) return client;
    if (this.#closing !== undefined) throw this.#closedError();
    throw new SwitchboardError(ErrorCode.ServerDisconnected, `server "${this.spec.name}" is not connected (${this.#state})`, {
      server: this.spec.name,
      ...(this.#lastError === undefined ? {} : { cause: this.#lastError }),
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
      const seconds = this.spec.startupTimeoutMs / 1000;
      return new SwitchboardError(ErrorCode.ServerStartFailed, `server "${name}" did not complete the handshake within ${seconds} s`, {
        server: name,
        cause: error,
        hint:
          this.spec.type === 'stdio'
            ? 'a server that waits for input, prints its messages elsewhere, or is still downloading (npx) looks like this; raise `timeout` if it is just slow'
            : 'the server accepted the connection but did not answer initialize; check it is an MCP endpoint, or raise `timeout`',
        details: { ...details, reason: 'timeout', timeoutMs: this.spec.startupTimeoutMs },
      });
    }
    if (exit !== undefined) {
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
      const ours = [...SUPPORTED_PROTOCOL_VERSIONS].join(', ');
      return new SwitchboardError(
        ErrorCode.ProtocolVersionUnsupported,
        serverVersion === undefined
          ? `server "${name}": no protocol version in common (${mapped.message}); this client speaks ${ours}, and 2026-07-28 with protocol: auto`
          : `server "${name}" speaks protocol version ${serverVersion}; this client speaks ${ours}, and 2026-07-28 with protocol: auto`,
        {
          server: name,
          cause: error,
          hint: 'upgrade the server (or this client); for a 2026-07-28-only server set `protocol: auto`',
          details: { ...details, reason: 'protocol-version', serverVersion, supportedVersions: [...SUPPORTED_PROTOCOL_VERSIONS] },
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

function rpcError(error: RpcErrorPayload, server: string, method: string): SwitchboardError {
  const code = typeof error?.code === 'number' ? error.code : -32603;
  const message = typeof error?.message === 'string' ? error.message : 'unknown error';
  return toSwitchboardError(ProtocolError.fromError(code, message, error?.data), { server, operation: method });
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

/**
 * @module connection/server-link
 * The live link to one server: the transport (a process over stdio, Streamable HTTP, or legacy SSE
 * after a fallback) and the session on it. Opens them (one attempt, no deadline of its own), tears
 * them down, and says how the link ended.
 */

import type { FetchLike, JSONRPCMessage } from '@modelcontextprotocol/client';
import type { HttpServerSpec, ServerSpec, StdioServerSpec } from '../config/server-spec.js';
import { DEFAULT_STDIO_PROBE_TIMEOUT_MS } from '../config/server-spec.js';
import type { SwitchboardError } from '../errors.js';
import type { Logger } from '../logger.js';
import { httpStatusOf } from '../to-switchboard-error.js';
import { VERSION } from '../version.js';
import { disconnectError, droppedError } from './connection-errors.js';
import { createHttpTransport, createStdioTransport, type TransportKind } from './create-transport.js';
import { shouldFallBackToSse } from './http-status.js';
import { createMessageTrace } from './message-trace.js';
import type { ServerConnectionOptions } from './server-connection-options.js';
import { clientCapabilities } from './client-capabilities.js';
import { createSdkSession } from './session/create-sdk-session.js';
import { handshake } from './session/handshake.js';
import { LeanSession } from './session/lean-session.js';
import type { McpSession, SessionSink } from './session/mcp-session.js';
import type { StdioProcessTransport } from './stdio-process-transport.js';
import { TappedStdioTransport, TappedTransport, type TransportTap } from './tapped-transport.js';

/** What the link needs from its connection. */
export interface ServerLinkHost {
  readonly spec: ServerSpec;
  readonly options: ServerConnectionOptions;
  readonly logger: Logger;
  readonly sink: SessionSink;
  stderrLine(line: string): void;
  /** The current transport closed (not one replaced by a fallback). */
  closed(): void;
  /** The fetch to use for HTTP (the OAuth layer's, when there is one). */
  httpFetch(): Promise<FetchLike | undefined>;
}

/** The transport and session of one server connection. */
export class ServerLink {
  readonly #host: ServerLinkHost;
  #session: McpSession | undefined;
  #transport: TappedTransport | undefined;
  #stdio: StdioProcessTransport | undefined;
  #kind: TransportKind | undefined;
  /** Why the link was dropped by this side (a legacy SSE stream cut at the bound), for the calls it ends. */
  #dropped: SwitchboardError | undefined;
  readonly #stderrTail: string[] = [];

  constructor(host: ServerLinkHost) {
    this.#host = host;
  }

  /** The session, once one is being opened. */
  get session(): McpSession | undefined {
    return this.#session;
  }

  get transportKind(): TransportKind | undefined {
    return this.#kind;
  }

  /** The HTTP session id (Streamable HTTP). */
  get sessionId(): string | undefined {
    return this.#transport?.sessionId;
  }

  get stdio(): StdioProcessTransport | undefined {
    return this.#stdio;
  }

  /** The last lines the server wrote to stderr (kept after the process ended). */
  stderrTail(lines: number): string[] {
    return this.#stdio?.stderr.lines(lines) ?? this.#stderrTail.slice(-lines);
  }

  /** Why this side dropped the link (a legacy SSE stream cut at the bound), if it did. */
  get dropped(): SwitchboardError | undefined {
    return this.#dropped;
  }

  /** How the link ended: the exit status and stderr of a process, or a closed connection. */
  disconnectError(): SwitchboardError {
    return this.#dropped ?? disconnectError(this.#host.spec.name, this.#stdio);
  }

  /** Opens transport and session; on failure the caller tears down. */
  open(signal: AbortSignal, deadlineMs: number): Promise<void> {
    const spec = this.#host.spec;
    this.#dropped = undefined;
    return spec.type === 'stdio' ? this.#openStdio(spec, signal, deadlineMs) : this.#openHttp(spec, signal, deadlineMs);
  }

  async #openStdio(spec: StdioServerSpec, signal: AbortSignal, deadlineMs: number): Promise<void> {
    const host = this.#host;
    const stdio = createStdioTransport(spec, host.logger, (line) => host.stderrLine(line));
    this.#stdio = stdio;
    this.#kind = 'stdio';
    const transport = new TappedStdioTransport(stdio, this.#tap());
    const { leanRequests, onElicitation, onSampling, roots } = host.options;
    // The SDK-free session serves stdio, the 2025 era, and no server→client requests but ping.
    if (spec.protocol === 'legacy' && leanRequests !== false && onElicitation === undefined && onSampling === undefined && roots === undefined) {
      // Without debug tracing, requests skip the tap and are written without a promise (see sendRequest).
      const send = (message: JSONRPCMessage, lone: boolean): Promise<void> | void => transport.sendRequest(message, lone);
      const session = new LeanSession({ serverName: spec.name, clientInfo: this.#clientInfo(), capabilities: clientCapabilities(host.options), sink: host.sink, send });
      await this.#handshake(session, transport, signal, deadlineMs);
      return;
    }
    const session = await this.#sdkSession(spec.protocol === 'legacy' ? undefined : spec.protocol, DEFAULT_STDIO_PROBE_TIMEOUT_MS);
    await this.#handshake(session, transport, signal, deadlineMs);
  }

  async #openHttp(spec: HttpServerSpec, signal: AbortSignal, deadlineMs: number): Promise<void> {
    const { options, logger } = this.#host;
    const fetch = await this.#host.httpFetch();
    const httpOptions = {
      logger,
      ...(fetch === undefined ? {} : { fetch }),
      ...(options.authProvider === undefined ? {} : { authProvider: options.authProvider }),
    };
    if (spec.transport !== 'sse') {
      this.#kind = 'http';
      const session = await this.#sdkSession(spec.protocol === 'legacy' ? undefined : spec.protocol, undefined);
      const transport = new TappedTransport(await createHttpTransport('http', spec, httpOptions), this.#tap());
      try {
        await this.#handshake(session, transport, signal, deadlineMs);
        return;
      } catch (error) {
        if (spec.transport === 'http' || signal.aborted || !shouldFallBackToSse(error)) throw error;
        logger.info('Streamable HTTP refused, falling back to legacy SSE', { status: httpStatusOf(error) });
        await this.teardown();
      }
    }
    // An SSE fallback must use a 2025 (legacy-mode) client: SSE servers predate 2026-07-28.
    this.#kind = 'sse';
    const session = await this.#sdkSession(undefined, undefined);
    // Every answer comes on the one stream: cut at the bound, the session is over, and its calls fail now with why (not at their deadlines).
    const onStreamCut = (what: string): void => {
      if (this.#transport !== transport) return;
      this.#dropped = droppedError(spec.name, what);
      transport.close().catch((error: unknown) => logger.debug('closing the cut stream failed', { error: String(error) }));
    };
    const transport: TappedTransport = new TappedTransport(await createHttpTransport('sse', spec, { ...httpOptions, onStreamCut }), this.#tap());
    await this.#handshake(session, transport, signal, deadlineMs);
  }

  #clientInfo(): { name: string; version: string } {
    return this.#host.options.clientInfo ?? { name: 'mcp-switchboard', version: VERSION };
  }

  #sdkSession(mode: ServerSpec['protocol'] | undefined, probeTimeoutMs: number | undefined): ReturnType<typeof createSdkSession> {
    const { spec, options, sink } = this.#host;
    return createSdkSession({ serverName: spec.name, clientInfo: this.#clientInfo(), mode, probeTimeoutMs, handlers: options, sink });
  }

  async #handshake(session: McpSession, transport: TappedTransport, signal: AbortSignal, deadlineMs: number): Promise<void> {
    this.#session = session;
    this.#transport = transport;
    this.#session = await handshake(session, transport, { signal, timeoutMs: deadlineMs, serverName: this.#host.spec.name, leanRequests: this.#host.options.leanRequests });
  }

  #tap(): TransportTap {
    const trace = createMessageTrace(this.#host.spec, this.#host.logger);
    return {
      intercept: (message) => this.#session?.intercept(message) ?? false,
      ...(trace === undefined ? {} : { trace }),
      // Only the current transport's close matters; an old one closing after a fallback does not.
      closed: (transport) => {
        if (transport !== this.#transport) return;
        // Calls in flight reject now, not at their deadline.
        this.#session?.failRequests(this.disconnectError());
        this.#host.closed();
      },
    };
  }

  /** Ends session, transport and (stdio) the process group; requests still waiting are rejected. */
  async teardown(): Promise<void> {
    const session = this.#session;
    const transport = this.#transport;
    const stdio = this.#stdio;
    this.#session = undefined;
    this.#transport = undefined;
    // Requests still waiting on the old session will never be answered there.
    session?.failRequests(this.disconnectError());
    try {
      await session?.close();
    } catch (error) {
      this.#host.logger.debug('error while closing the client', { error: String(error) });
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
}

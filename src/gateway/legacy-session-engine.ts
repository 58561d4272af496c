/**
 * @module gateway/legacy-session-engine
 * The SDK half of a 2025-era session: its Streamable HTTP transport and aggregated `Server`. They
 * are most of an idle session's memory (~9 KiB of heap: the `Server` with its request handlers and
 * the connected transport), so a session idle for a while lets them go and builds them again when a
 * request needs them: the new pair is brought to where the old one was by replaying the client's
 * `initialize` (same protocol version, capabilities and client info), which the SDK answers without
 * anything leaving the gateway. See `LegacySession` and issue 17.
 */

import { WebStandardStreamableHTTPServerTransport, type Server } from '@modelcontextprotocol/server';
import type { ClientCapabilities, Implementation } from '@modelcontextprotocol/server';
import { createAggregatedServer } from './aggregated-server.js';
import type { DownstreamSession } from './downstream-session.js';
import type { UserEndpoint } from './user-endpoint.js';

/** A session's transport and server, connected. */
export interface SessionEngine {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
}

/** What the client said in `initialize` (and what was agreed): enough to bring a new engine to the same state. */
export interface SessionHandshake {
  readonly protocolVersion: string;
  readonly capabilities: ClientCapabilities;
  readonly clientInfo: Implementation;
}

/** Callbacks of an engine. */
export interface SessionEngineHooks {
  /** The transport accepted an `initialize` (also a replayed one). */
  onInitialized(): void;
  /** The client ended the session with `DELETE`; awaited before the DELETE is answered (every replica refuses the id from then on). */
  onDeleted?(): Promise<void> | void;
  /** The client ended the session (`DELETE`) or the server closed on its own. */
  onClosed(): void;
}

/** A transport and a server for session `id`, connected (the server's `onclose` is the hooks'). */
export async function createSessionEngine(id: string, endpoint: UserEndpoint, record: DownstreamSession, maxBodyBytes: number, hooks: SessionEngineHooks): Promise<SessionEngine> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => id,
    onsessioninitialized: () => hooks.onInitialized(),
    // Awaited by the transport: the DELETE is answered once every replica will refuse the id.
    onsessionclosed: async () => {
      try {
        await hooks.onDeleted?.();
      } finally {
        hooks.onClosed();
      }
    },
    maxRequestBodySize: maxBodyBytes,
  });
  const server = createAggregatedServer({ host: endpoint, era: 'legacy', session: record });
  server.onclose = () => hooks.onClosed();
  await server.connect(transport);
  return { transport, server };
}

/** The handshake an initialized engine's server agreed on; undefined before `initialize` succeeded. */
export function handshakeOf(engine: SessionEngine): SessionHandshake | undefined {
  const server = engine.server;
  const protocolVersion = server.getNegotiatedProtocolVersion();
  const capabilities = server.getClientCapabilities();
  const clientInfo = server.getClientVersion();
  if (protocolVersion === undefined || capabilities === undefined || clientInfo === undefined) return undefined;
  return { protocolVersion, capabilities, clientInfo };
}

/** Brings a fresh engine to an initialized session's state: its `initialize` again, answered inside the gateway. */
export async function replayInitialize(engine: SessionEngine, handshake: SessionHandshake): Promise<void> {
  const request = new Request('http://localhost/mcp', { method: 'POST', headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' } });
  const parsedBody = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: handshake.protocolVersion, capabilities: handshake.capabilities, clientInfo: handshake.clientInfo } };
  const response = await engine.transport.handleRequest(request, { parsedBody });
  // The answer is the SSE stream of one message; read to its end so nothing of it stays open.
  await response.text();
  if (response.status !== 200 || engine.server.getNegotiatedProtocolVersion() !== handshake.protocolVersion) {
    throw new Error(`the session could not be resumed (replayed initialize answered ${response.status})`);
  }
}

/** Closes an engine without telling anyone (the session decided it). */
export function dropSessionEngine(engine: SessionEngine): Promise<void> {
  engine.server.onclose = undefined;
  return engine.server.close().catch(() => {});
}

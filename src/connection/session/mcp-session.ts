/**
 * @module connection/session/mcp-session
 * One MCP session on one transport, whatever carries it: the SDK `Client` ({@link SdkSession}), the
 * SDK handshake with the lean per-call path ({@link HybridSession}), or the SDK-free session
 * ({@link LeanSession}). The connection holds one and never asks which; deadlines, expired sessions
 * and error mapping live once, in the connection's request path, around these calls.
 */

import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type { SwitchboardError } from '../../errors.js';
import type { LeanRequestOptions } from '../lean-requester.js';
import type { ServerInfo } from '../mcp-types.js';
import type { TappedTransport } from '../tapped-transport.js';

/** Deadline, cancellation and progress of one request, resolved (the deadline is always set). */
export type SessionRequestOptions = LeanRequestOptions;

/** The `tools/call` params. */
export interface ToolCallParams {
  name: string;
  arguments: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/** What a session tells its owner (notifications the server sent). */
export interface SessionSink {
  listChanged(kind: 'tools' | 'prompts' | 'resources'): void;
  resourceUpdated(uri: string): void;
  log(level: string, logger: string | undefined, data: unknown): void;
  protocolError(error: Error): void;
}

/** One MCP session. Results are raw; the caller validates them. */
export interface McpSession {
  /** Performs the handshake on `transport` (started here) within `timeoutMs`. */
  connect(transport: TappedTransport, options: { signal: AbortSignal; timeoutMs: number }): Promise<void>;
  readonly protocolVersion: string | undefined;
  readonly protocolEra: 'legacy' | 'modern' | undefined;
  readonly serverInfo: ServerInfo | undefined;
  readonly capabilities: Record<string, unknown> | undefined;
  readonly instructions: string | undefined;
  /** Sends a request and resolves with its raw `result`. */
  request(method: string, params: Record<string, unknown> | undefined, options: SessionRequestOptions): Promise<unknown>;
  /** `tools/call` (the SDK session also mirrors `x-mcp-header` arguments and checks structured output). */
  callTool(params: ToolCallParams, options: SessionRequestOptions): Promise<unknown>;
  /**
   * Tools, when the session lists them itself (a 2026-07-28 session, through the SDK); undefined
   * when the caller pages `tools/list` by {@link request}.
   */
  ownToolList(options: SessionRequestOptions): Promise<unknown[]> | undefined;
  /** Sees each inbound message first; true when it consumed it (a lean-path response or progress). */
  intercept(message: JSONRPCMessage): boolean;
  /** Rejects every request in flight, now and later, with `error` (the transport closed). */
  failRequests(error: SwitchboardError): void;
  /** Closes the session (not the process under it). */
  close(): Promise<void>;
}

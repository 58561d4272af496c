/**
 * @module gateway/lean-initialize
 * A 2025-era `initialize` answered by the gateway itself, without building the session's SDK
 * transport and `Server` (issue 17: they were ~20 KiB of heap per idle session, most of its memory).
 * The answer is the one the SDK's sessionful transport and the aggregated server give — the same
 * negotiated version, capabilities, server identity and instructions, SSE-framed, with the session id
 * — and the session starts dormant: the first request that needs an SDK server builds it by replaying
 * this handshake (see `legacy-session-engine`). Only a request the SDK would accept as it is takes
 * this way (valid headers, one JSON-RPC request, params that pass the spec's own `InitializeRequest`
 * schema, a 2025-era version the SDK agrees to as asked); anything else goes to the SDK, which answers
 * or refuses it as before.
 */

import { SUPPORTED_PROTOCOL_VERSIONS, isJsonContentType, specTypeSchemas, type ClientCapabilities, type Implementation } from '@modelcontextprotocol/server';
import { VERSION } from '../version.js';
import { GATEWAY_CAPABILITIES } from './aggregated-server.js';
import type { SessionHandshake } from './legacy-session-engine.js';
import { GATEWAY_TASKS_CAPABILITY } from './task-handlers.js';

/** The versions a 2025-era `initialize` may ask for here: the SDK's 2025-era ones, which it agrees to as asked. */
const LEAN_PROTOCOL_VERSIONS: ReadonlySet<string> = new Set(SUPPORTED_PROTOCOL_VERSIONS.filter((version) => version < '2026'));
/** What the aggregated server of a 2025-era session offers (see `createAggregatedServer`). */
const SESSION_CAPABILITIES = { ...GATEWAY_CAPABILITIES, tasks: GATEWAY_TASKS_CAPABILITY };
const SERVER_INFO = { name: 'mcp-switchboard', version: VERSION };

/** An `initialize` the gateway answers itself: its JSON-RPC id and what the client said. */
export interface LeanInitialize {
  readonly id: string | number;
  readonly handshake: SessionHandshake;
}

/** True when `accept` takes both answers a Streamable HTTP POST may get (else the SDK answers 406). */
export function acceptsJsonAndSse(accept: string | null): boolean {
  return accept !== null && accept.includes('application/json') && accept.includes('text/event-stream');
}

/** The `initialize` of `request` (its parsed JSON `body`) when the gateway may answer it itself; undefined: the SDK's. */
export function leanInitializeOf(request: Request, body: unknown): LeanInitialize | undefined {
  if (request.method !== 'POST' || !acceptsJsonAndSse(request.headers.get('accept')) || !isJsonContentType(request.headers.get('content-type'))) return undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { jsonrpc, id, method, params } = body as Record<string, unknown>;
  if (jsonrpc !== '2.0' || method !== 'initialize' || !(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return undefined;
  const checked = specTypeSchemas.InitializeRequest['~standard'].validate({ method, params });
  if (checked instanceof Promise || checked.issues !== undefined) return undefined;
  const parsed = checked.value.params as { protocolVersion: string; capabilities: ClientCapabilities; clientInfo: Implementation };
  if (!LEAN_PROTOCOL_VERSIONS.has(parsed.protocolVersion)) return undefined;
  return { id, handshake: { protocolVersion: parsed.protocolVersion, capabilities: parsed.capabilities, clientInfo: parsed.clientInfo } };
}

/** The answer to a lean `initialize` of session `sessionId`, as the SDK's transport frames it (one SSE message). */
export function leanInitializeAnswer(sessionId: string, initialize: LeanInitialize, instructions: string | undefined): Response {
  const result = { protocolVersion: initialize.handshake.protocolVersion, capabilities: SESSION_CAPABILITIES, serverInfo: SERVER_INFO, ...(instructions === undefined ? {} : { instructions }) };
  const text = `event: message\ndata: ${JSON.stringify({ result, jsonrpc: '2.0', id: initialize.id })}\n\n`;
  return new Response(text, {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no', 'mcp-session-id': sessionId },
  });
}

/**
 * @module gateway/fast-mcp-answers
 * How the fast path writes its answers on the Node response, as the SDK's transports would: a 2025-era
 * POST gets one SSE `message` event and the end of the stream, a 2026-07-28 request a JSON body; both
 * with a known length (one write of headers and body, no chunked framing) and the headers the app puts
 * on every answer. Messages are JSON text already, so a cached part (a `tools/list` result) is spliced
 * in rather than serialized again.
 */

import type { ServerResponse } from 'node:http';

/** A JSON-RPC answer of the fast path. */
export type FastAnswer = { result: unknown } | { error: unknown };

/** The message text of `answer` to request `id` (the same bytes as `JSON.stringify` of the SDK's message). */
export function messageText(id: string | number, answer: FastAnswer): string {
  return JSON.stringify('result' in answer ? { result: answer.result, jsonrpc: '2.0', id } : { jsonrpc: '2.0', id, error: answer.error });
}

/** What a client is told when a server's result cannot be turned into text (nested too deep for `JSON.stringify`). */
const UNSENDABLE = { code: -32603, message: "the server's result could not be passed on: it is nested too deeply to serialize" };

/**
 * {@link messageText} of the answer `make` builds, or the JSON-RPC error {@link UNSENDABLE} when building
 * or serializing it throws: a hostile server's result must cost its caller an error, not the gateway
 * its process (the throw happened in a promise reaction, where nothing caught it).
 */
export function answerText(id: string | number, make: () => FastAnswer): string {
  try {
    return messageText(id, make());
  } catch {
    return messageText(id, { error: UNSENDABLE });
  }
}

/** The message text of a result already serialized as `resultJson`. */
export function resultMessageText(id: string | number, resultJson: string): string {
  return `{"result":${resultJson},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
}

/**
 * Node's `writeHead` takes headers as a flat name/value list: no object to build (a spread of the
 * shared ones cost a hidden-class migration per answer) and no keyed walk of it (issue 17). Every
 * answer carries the headers the app puts on all of them; a client's own `x-request-id` is kept when
 * well-formed.
 */
const SECURITY = ['x-content-type-options', 'nosniff', 'referrer-policy', 'no-referrer', 'x-frame-options', 'DENY'] as const;
const SSE = ['content-type', 'text/event-stream', 'cache-control', 'no-cache, no-transform', 'x-accel-buffering', 'no'] as const;

/** The SDK's SSE answer of a 2025-era POST: one `message` event with `message`, then the end. */
export function writeSseMessage(outgoing: ServerResponse, sessionId: string, requestId: string, message: string): void {
  const text = `event: message\ndata: ${message}\n\n`;
  outgoing.writeHead(200, ['x-request-id', requestId, ...SECURITY, ...SSE, 'mcp-session-id', sessionId, 'content-length', String(Buffer.byteLength(text))]);
  outgoing.end(text);
}

/** The end of a cancelled call's stream: the SSE headers and no message. */
export function writeSseEnd(outgoing: ServerResponse, sessionId: string, requestId: string): void {
  outgoing.writeHead(200, ['x-request-id', requestId, ...SECURITY, ...SSE, 'mcp-session-id', sessionId]);
  outgoing.end();
}

/** The SDK's JSON answer of a 2026-07-28 request. */
export function writeJsonMessage(outgoing: ServerResponse, requestId: string, message: string): void {
  outgoing.writeHead(200, ['x-request-id', requestId, ...SECURITY, 'content-type', 'application/json', 'content-length', String(Buffer.byteLength(message))]);
  outgoing.end(message);
}

/** A 202 for a notification (as the SDK answers them). */
export function writeAccepted(outgoing: ServerResponse, requestId: string): void {
  outgoing.writeHead(202, ['x-request-id', requestId, ...SECURITY, 'content-length', '0']);
  outgoing.end();
}

/**
 * @module gateway/dormant-answer
 * What a dormant 2025-era session (no SDK transport or server, see `legacy-session`) answers without
 * building them: the client's `notifications/initialized`, which the SDK's transport accepts with a
 * bare 202 (the aggregated server does nothing with it). Every lean client sends it right after
 * `initialize`; waking the session for it would undo the lean `initialize` (issue 17). Only a request
 * the SDK's transport would accept as it is (headers, one notification) is answered here; anything
 * else wakes the session and goes to the SDK as before.
 */

import { SUPPORTED_PROTOCOL_VERSIONS, isJsonContentType } from '@modelcontextprotocol/server';
import { acceptsJsonAndSse } from './lean-initialize.js';

const SUPPORTED_VERSIONS: ReadonlySet<string> = new Set(SUPPORTED_PROTOCOL_VERSIONS);

/** The answer of a dormant session to `request` (its parsed JSON `body`), or undefined when it needs the SDK's server. */
export function dormantAnswerOf(request: Request, body: { value: unknown } | undefined): Response | undefined {
  if (body === undefined || request.method !== 'POST' || !acceptsJsonAndSse(request.headers.get('accept')) || !isJsonContentType(request.headers.get('content-type'))) return undefined;
  const version = request.headers.get('mcp-protocol-version');
  if (version !== null && !SUPPORTED_VERSIONS.has(version)) return undefined;
  const message = body.value;
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { jsonrpc, method, params, id } = message as Record<string, unknown>;
  if (jsonrpc !== '2.0' || method !== 'notifications/initialized' || id !== undefined) return undefined;
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) return undefined;
  return new Response(null, { status: 202 });
}

/**
 * @module gateway/fast-mcp-requests
 * What the fast path reads in a request body: a JSON-RPC request it may answer, a cancellation, the
 * tool and arguments of a plain `tools/call`, a 2026-07-28 envelope with nothing it does not handle.
 * Key loops instead of `Object.keys(…).some(…)` and object rests: no array or copy per request (issue 17).
 */

import type { CatalogTool } from '../client/multi-server-client.js';
import type { UserClient } from '../pool/index.js';

/** The protocol version of stateless requests. */
export const MODERN_VERSION = '2026-07-28';
const META_PROTOCOL = 'io.modelcontextprotocol/protocolVersion';
const META_CLIENT = 'io.modelcontextprotocol/clientInfo';
const META_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const MODERN_META_KEYS = new Set([META_PROTOCOL, META_CLIENT, META_CAPABILITIES]);

export type JsonObject = Record<string, unknown>;
/** A JSON-RPC request the fast path may answer. */
export interface RpcRequest {
  id: string | number;
  method: string;
  params: JsonObject;
}

/** A JSON object (not an array, not null). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` as a JSON-RPC request with nothing but `jsonrpc`, `id`, `method` and `params`; undefined otherwise. */
export function rpcRequestOf(value: unknown): RpcRequest | undefined {
  if (!isObject(value) || value.jsonrpc !== '2.0' || typeof value.method !== 'string') return undefined;
  const id = value.id;
  if ((typeof id !== 'string' && typeof id !== 'number') || (typeof id === 'number' && !Number.isInteger(id))) return undefined;
  const params = value.params ?? {};
  if (!isObject(params)) return undefined;
  for (const key in value) if (key !== 'jsonrpc' && key !== 'id' && key !== 'method' && key !== 'params') return undefined;
  return { id, method: value.method, params };
}

/** A `notifications/cancelled` naming a request id. */
export function isCancellation(value: unknown): value is JsonObject {
  return isObject(value) && value.jsonrpc === '2.0' && value.method === 'notifications/cancelled' && value.id === undefined && isObject(value.params) && (typeof value.params.requestId === 'string' || typeof value.params.requestId === 'number');
}

/** The tool and arguments of a `tools/call` the fast path can make (a known tool, no progress token, no task). */
export function callOf(request: RpcRequest, client: UserClient): { tool: CatalogTool; args: JsonObject } | undefined {
  if (request.method !== 'tools/call') return undefined;
  const params = request.params;
  const { name, arguments: args, _meta: meta } = params;
  if (typeof name !== 'string' || (args !== undefined && !isObject(args))) return undefined;
  for (const key in params) if (key !== 'name' && key !== 'arguments' && key !== '_meta') return undefined;
  if (isObject(meta) && meta.progressToken !== undefined) return undefined;
  const tool = client.getTool(name);
  return tool === undefined ? undefined : { tool, args: args ?? {} };
}

/** The 2026-07-28 envelope with nothing the fast path does not handle (no log level, no input answers). */
export function isModernEnvelope(meta: unknown): boolean {
  if (!isObject(meta) || meta[META_PROTOCOL] !== MODERN_VERSION) return false;
  const info = meta[META_CLIENT];
  const capabilities = meta[META_CAPABILITIES];
  if (!isObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string' || !isObject(capabilities)) return false;
  if (capabilities.elicitation !== undefined || capabilities.sampling !== undefined) return false;
  for (const key in meta) if (!MODERN_META_KEYS.has(key)) return false;
  return true;
}

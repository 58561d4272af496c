/**
 * @module gateway/fast-mcp-results
 * A 2026-07-28 `tools/call` result as the fast path sends it, shaped as the SDK's per-request server
 * shapes it: a non-object structured result wrapped, `resultType` and the server's identity stamped.
 */

import type { CallToolResult } from '@modelcontextprotocol/server';
import { VERSION } from '../version.js';

const SERVER_INFO = { name: 'mcp-switchboard', version: VERSION };
const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

/** The codec's projection of a non-object structured result (wrapped, with a text fallback). */
export function projectStructured(result: CallToolResult): CallToolResult {
  const structured = result.structuredContent as unknown;
  if (typeof structured === 'object' && structured !== null && !Array.isArray(structured)) return result;
  const content = result.content.some((part) => part.type === 'text') ? result.content : [...result.content, { type: 'text' as const, text: JSON.stringify(structured) }];
  return { ...result, content, structuredContent: { result: structured } };
}

/**
 * A 2026-07-28 result: `resultType` and the server's identity in `_meta`, as the SDK stamps them. Built
 * in fixed shapes (a spread of the result cost a clone and a migration per call, issue 17), with the
 * keys in the order the spread gave them — an absent field is `undefined`, which JSON leaves out, so
 * the bytes are the same: `_meta` before `resultType` when the result had one, after it otherwise.
 */
export function stampModern(result: CallToolResult): Record<string, unknown> {
  const meta = result._meta;
  if (meta === undefined) return { content: result.content, isError: result.isError, structuredContent: result.structuredContent, resultType: 'complete', _meta: { [SERVER_INFO_KEY]: SERVER_INFO } };
  const stamped = typeof meta === 'object' && meta !== null ? { ...meta, [SERVER_INFO_KEY]: meta[SERVER_INFO_KEY] ?? SERVER_INFO } : { [SERVER_INFO_KEY]: SERVER_INFO };
  return { content: result.content, isError: result.isError, structuredContent: result.structuredContent, _meta: stamped, resultType: 'complete' };
}

/**
 * @module gateway/fast-mcp-results
 * A 2026-07-28 `tools/call` result as the fast path sends it, shaped as the SDK's per-request server
 * shapes it: a non-object structured result wrapped, `resultType` and the server's identity stamped.
 */

import type { CallToolResult } from '@modelcontextprotocol/server';
import { VERSION } from '../version.js';

const SERVER_INFO = { name: 'mcp-switchboard', version: VERSION };

/** The codec's projection of a non-object structured result (wrapped, with a text fallback). */
export function projectStructured(result: CallToolResult): CallToolResult {
  const structured = result.structuredContent as unknown;
  if (typeof structured === 'object' && structured !== null && !Array.isArray(structured)) return result;
  const content = result.content.some((part) => part.type === 'text') ? result.content : [...result.content, { type: 'text' as const, text: JSON.stringify(structured) }];
  return { ...result, content, structuredContent: { result: structured } };
}

/** A 2026-07-28 result: `resultType` and the server's identity in `_meta`, as the SDK stamps them. */
export function stampModern(result: CallToolResult): Record<string, unknown> {
  const meta = result._meta;
  return { ...result, resultType: 'complete', _meta: typeof meta === 'object' && meta !== null ? { ...meta, 'io.modelcontextprotocol/serverInfo': meta['io.modelcontextprotocol/serverInfo'] ?? SERVER_INFO } : { 'io.modelcontextprotocol/serverInfo': SERVER_INFO } };
}

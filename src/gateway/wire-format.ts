/**
 * @module gateway/wire-format
 * The library's catalog and result types as MCP wire objects (what `tools/list`, `tools/call` and the
 * other list methods return downstream), and the mapping of library errors to JSON-RPC errors.
 */

import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { CallToolResult, GetPromptResult as WirePromptResult, ReadResourceResult as WireReadResult, Tool } from '@modelcontextprotocol/server';
import { toLenientSchema } from '../client/call/lenient-schema.js';
import type { CatalogTool } from '../client/multi-server-client.js';
import type { GetPromptResult, ReadResourceResult } from '../connection/mcp-types.js';
import { ErrorCode, isSwitchboardError } from '../errors.js';
import type { ContentItem, ResourceContents, ToolResult } from '../result/tool-result.js';

/**
 * A catalog tool as `tools/list` shows it: name, schemas, annotations, icons and `_meta` passed through, except that
 * a required input property with a `default` is not required (as the gateway's own check sees it,
 * `toLenientSchema`): a downstream client that checks arguments itself must not refuse what the
 * server accepts (@playwright/mcp's `browser_take_screenshot` requires and defaults `scale`).
 */
export function toWireTool(tool: CatalogTool): Tool {
  return {
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.description === undefined ? {} : { description: tool.description }),
    inputSchema: { type: 'object', ...toLenientSchema(tool.inputSchema) },
    ...(tool.outputSchema === undefined ? {} : { outputSchema: { type: 'object', ...tool.outputSchema } }),
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
    ...(tool.icons === undefined ? {} : { icons: tool.icons }),
    ...(tool._meta === undefined ? {} : { _meta: tool._meta }),
    ...(tool.execution === undefined ? {} : { execution: tool.execution as Tool['execution'] }),
  };
}

/** A normalized result as `tools/call` returns it. */
export function toWireResult(result: ToolResult): CallToolResult {
  // Fields added when present rather than a conditional spread per field (each spread was a temporary
  // object and a property copy on every call, issue 17). Absent, not undefined: the SDK's codec orders
  // a result's keys by the ones present, and both paths answer the same bytes.
  const wire: CallToolResult = { content: result.content.map(toWireContent) };
  if (result.isError) wire.isError = true;
  if (isRecord(result.structuredContent)) wire.structuredContent = result.structuredContent;
  if (result._meta !== undefined) wire._meta = result._meta;
  return wire;
}

/** A `resources/read` result on the wire (each item keeps its fields; text or blob as the server sent it). */
export function toWireReadResult(result: ReadResourceResult): WireReadResult {
  const { contents, ...rest } = result;
  return { ...rest, contents: contents.map(toWireResourceContents) };
}

/** A `prompts/get` result on the wire. */
export function toWirePromptResult(result: GetPromptResult): WirePromptResult {
  const { messages, ...rest } = result;
  return { ...rest, messages: messages.map((message) => ({ role: message.role, content: toWireContent(message.content) })) };
}

function toWireResourceContents(contents: ResourceContents): { uri: string; text: string } | { uri: string; blob: string } {
  return contents.blob === undefined ? { ...contents, text: contents.text ?? '' } : { ...contents, blob: contents.blob };
}

function toWireContent(item: ContentItem): CallToolResult['content'][number] {
  switch (item.type) {
    case 'text':
      return item.annotations === undefined ? { type: 'text', text: item.text } : { type: 'text', text: item.text, annotations: item.annotations };
    case 'image':
    case 'audio':
      return { type: item.type, data: item.data, mimeType: item.mimeType, ...(item.annotations === undefined ? {} : { annotations: item.annotations }) };
    case 'resource':
      return { type: 'resource', resource: toWireResourceContents(item.resource), ...(item.annotations === undefined ? {} : { annotations: item.annotations }) };
    case 'resource_link':
      // `name` is required on the wire; a server that left it out gets its URI as the name.
      return { ...item, type: 'resource_link', name: item.name ?? item.uri };
  }
}

/** A failed call as a tool result the model can read (`isError: true`), for failures that are not protocol errors. */
export function failureResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * A library error as a JSON-RPC error: an upstream's own JSON-RPC error keeps its code; bad input
 * and unknown names are Invalid params; the rest are Internal errors with the library's message.
 */
export function toProtocolError(error: unknown): ProtocolError {
  if (!isSwitchboardError(error)) return new ProtocolError(ProtocolErrorCode.InternalError, 'internal error of the gateway');
  const rpcCode = error.details.rpcCode;
  if (error.code === ErrorCode.ServerRequestFailed && typeof rpcCode === 'number') {
    // The upstream's own error, as it sent it: a gateway should not reword a server's answer.
    const upstream = upstreamRpcError(error, rpcCode);
    return new ProtocolError(rpcCode, upstream?.message ?? error.message, upstream?.data);
  }
  switch (error.code) {
    case ErrorCode.InvalidArgument:
    case ErrorCode.ToolNotFound:
    case ErrorCode.ServerNotFound:
    case ErrorCode.NotFound:
      return new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
    default:
      return new ProtocolError(ProtocolErrorCode.InternalError, error.message);
  }
}

/** The JSON-RPC error an upstream answered, found in the cause chain. */
function upstreamRpcError(error: Error, code: number): { message: string; data: unknown } | undefined {
  let current: unknown = error.cause;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    const candidate = current as Error & { code?: unknown; data?: unknown };
    if (candidate.code === code) return { message: candidate.message.replace(/^MCP error -?\d+: /, ''), data: candidate.data };
    current = candidate.cause;
  }
  return undefined;
}

/** True for a plain object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * @module result/normalize-tool-result
 * Validates a `tools/call` result once, by hand (no zod on the hot path), and normalizes it to
 * {@link ToolResult}. Items of a type this client does not know become text that says so, so nothing
 * is dropped silently.
 */

import { ErrorCode, SwitchboardError } from '../errors.js';
import type { ContentItem, ToolResult } from './tool-result.js';

/**
 * Normalizes a raw result; throws `SERVER_REQUEST_FAILED` when it is not a tool result at all. The
 * result shares `content` with `raw` unless an item had to be replaced (no copy per call).
 */
export function normalizeToolResult(raw: unknown, server?: string): ToolResult {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid('the result is not an object', server);
  const record = raw as Record<string, unknown>;
  const rawContent = record.content;
  let content: ContentItem[];
  if (Array.isArray(rawContent)) {
    // The server's array is kept unless an item has to be replaced (a parsed result is ours to keep).
    content = rawContent as ContentItem[];
    for (let index = 0; index < rawContent.length; index++) {
      const item: unknown = rawContent[index];
      const normalized = normalizeContentItem(item, index, server);
      if (normalized !== item) {
        if (content === rawContent) content = rawContent.slice() as ContentItem[];
        content[index] = normalized;
      }
    }
  } else if (rawContent === undefined) {
    // 2024-10-07 servers may answer `{ toolResult }`.
    content = 'toolResult' in record ? [{ type: 'text', text: JSON.stringify(record.toolResult) }] : [];
  } else {
    throw invalid('`content` is not an array', server);
  }
  const result: ToolResult = { isError: record.isError === true, content };
  if (record.structuredContent !== undefined) result.structuredContent = record.structuredContent;
  if (typeof record._meta === 'object' && record._meta !== null) result._meta = record._meta as Record<string, unknown>;
  return result;
}

function normalizeContentItem(item: unknown, index: number, server: string | undefined): ContentItem {
  if (typeof item !== 'object' || item === null) throw invalid(`content[${index}] is not an object`, server);
  const record = item as Record<string, unknown>;
  switch (record.type) {
    case 'text':
      if (typeof record.text !== 'string') throw invalid(`content[${index}].text is not a string`, server);
      return item as ContentItem;
    case 'image':
    case 'audio':
      if (typeof record.data !== 'string' || typeof record.mimeType !== 'string') {
        throw invalid(`content[${index}] (${record.type}) needs string \`data\` and \`mimeType\``, server);
      }
      return item as ContentItem;
    case 'resource': {
      const resource = record.resource;
      if (typeof resource !== 'object' || resource === null || typeof (resource as { uri?: unknown }).uri !== 'string') {
        throw invalid(`content[${index}].resource needs a \`uri\``, server);
      }
      return item as ContentItem;
    }
    case 'resource_link':
      if (typeof record.uri !== 'string') throw invalid(`content[${index}] (resource_link) needs a \`uri\``, server);
      return item as ContentItem;
    default:
      return { type: 'text', text: `[content of unsupported type ${JSON.stringify(record.type)}: ${JSON.stringify(item)}]` };
  }
}

function invalid(reason: string, server: string | undefined): SwitchboardError {
  return new SwitchboardError(ErrorCode.ServerRequestFailed, `${server === undefined ? '' : `server "${server}": `}invalid tool result: ${reason}`, {
    ...(server === undefined ? {} : { server }),
    reason: `invalid tool result: ${reason}`,
    hint: 'the server broke the MCP result format; report it to the server author',
  });
}

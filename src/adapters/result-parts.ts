/**
 * @module adapters/result-parts
 * A tool result as the flat parts every adapter maps to its framework: text, image, audio and file.
 * Embedded resources become text (with their URI) or media by MIME type; resource links become a line
 * of text naming the URI; `structuredContent` is sent as JSON only when there is no other content
 * (MCP servers are asked to mirror it in a text item). Nothing is dropped silently.
 */

import type { ContentItem, ToolResult } from '../result/tool-result.js';

/** One part of a tool result, ready for a model. `data` is base64. */
export type ResultPart =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'file'; data: string; mimeType: string; filename: string };

/** Text for a result with no content at all (some providers reject empty tool output). */
export const EMPTY_RESULT_TEXT = '(the tool returned no content)';

/** The parts of a result, in order. */
export function toResultParts(result: ToolResult): ResultPart[] {
  const parts = result.content.flatMap(toParts);
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push({ type: 'text', text: JSON.stringify(result.structuredContent) });
  if (parts.length === 0) parts.push({ type: 'text', text: EMPTY_RESULT_TEXT });
  return parts;
}

function toParts(item: ContentItem): ResultPart[] {
  switch (item.type) {
    case 'text':
      return [{ type: 'text', text: item.text }];
    case 'image':
      return [{ type: 'image', data: item.data, mimeType: item.mimeType }];
    case 'audio':
      return [{ type: 'audio', data: item.data, mimeType: item.mimeType }];
    case 'resource': {
      const { uri, mimeType, text, blob } = item.resource;
      if (typeof text === 'string') return [{ type: 'text', text: `[resource ${uri}${mimeType === undefined ? '' : ` (${mimeType})`}]\n${text}` }];
      if (typeof blob === 'string') {
        const type = mimeType ?? 'application/octet-stream';
        if (type.startsWith('image/')) return [{ type: 'image', data: blob, mimeType: type }];
        if (type.startsWith('audio/')) return [{ type: 'audio', data: blob, mimeType: type }];
        return [{ type: 'file', data: blob, mimeType: type, filename: filenameOf(uri) }];
      }
      return [{ type: 'text', text: `[resource ${uri} (no contents)]` }];
    }
    case 'resource_link': {
      const details = [item.title ?? item.name, item.mimeType, item.description].filter((part) => part !== undefined && part !== '');
      return [{ type: 'text', text: `[resource link ${item.uri}${details.length === 0 ? '' : ` (${details.join(', ')})`}]` }];
    }
  }
}

/** A one-line description of a media part for text-only channels, e.g. `[image image/png, 67 bytes]`. */
export function describeMedia(part: Exclude<ResultPart, { type: 'text' }>): string {
  const bytes = Math.floor((part.data.length * 3) / 4) - (part.data.endsWith('==') ? 2 : part.data.endsWith('=') ? 1 : 0);
  return `[${part.type} ${part.type === 'file' ? `${part.filename} ` : ''}${part.mimeType}, ${bytes} bytes]`;
}

/** The whole result as text: text parts as they are, media described in a line each. */
export function resultToText(result: ToolResult): string {
  return toResultParts(result)
    .map((part) => (part.type === 'text' ? part.text : describeMedia(part)))
    .join('\n');
}

function filenameOf(uri: string): string {
  const last = uri.split(/[/\\]/).filter(Boolean).at(-1) ?? 'resource';
  return last.replace(/[?#].*$/, '') || 'resource';
}

/** Whether a value is a `ToolResult` (e.g. an adapter's tool output or a ToolMessage artifact). */
export function isToolResult(value: unknown): value is ToolResult {
  return typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content) && typeof (value as { isError?: unknown }).isError === 'boolean';
}

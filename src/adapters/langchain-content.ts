/**
 * @module adapters/langchain-content
 * A tool result as the content of a LangChain `ToolMessage`: LangChain's standard content blocks
 * (`text`, `image`, `audio`, `file`, base64 with `mimeType`), so a provider package that understands
 * them sends images and audio to multimodal models instead of JSON text. A text-only result is one
 * plain string, which every chat model integration accepts.
 */

import type { ContentBlock } from '@langchain/core/messages';
import type { ToolResult } from '../result/tool-result.js';
import { toResultParts, type ResultPart } from './result-parts.js';

/** The content of a tool message for `result`: a string when it is all text, else standard blocks. */
export function toLangChainContent(result: ToolResult): string | ContentBlock.Standard[] {
  const parts = toResultParts(result);
  if (parts.every((part) => part.type === 'text')) return parts.map((part) => part.text).join('\n');
  return parts.map(toContentBlock);
}

/** One result part as a standard content block. */
export function toContentBlock(part: ResultPart): ContentBlock.Standard {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image', data: part.data, mimeType: part.mimeType };
    case 'audio':
      return { type: 'audio', data: part.data, mimeType: part.mimeType };
    case 'file':
      // Providers need a filename for files (e.g. @langchain/openai reads it from metadata).
      return { type: 'file', data: part.data, mimeType: part.mimeType, metadata: { filename: part.filename } };
  }
}

/**
 * @module adapters/ai-sdk-output
 * A tool result as AI SDK model output (`toModelOutput`): text alone as `text`, media as `content`
 * parts (`image-data`, `file-data`) so providers that take images in tool results — the OpenAI
 * Responses API, Anthropic, Google — get an image, not its base64 inside JSON text (vercel/ai#6073).
 * A result with `isError` is `error-text`.
 */

import type { Tool } from 'ai';
import type { ToolResult } from '../result/tool-result.js';
import { describeMedia, toResultParts } from './result-parts.js';
export { isToolResult } from './result-parts.js';

/** What `toModelOutput` returns (the AI SDK does not export the type by name). */
export type AiSdkModelOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;
type ContentPart = Extract<AiSdkModelOutput, { type: 'content' }>['value'][number];

/** How audio in tool results is sent. */
export type AiSdkAudioMode = 'file-data' | 'describe';

/** The model output for a tool result. */
export function toAiSdkModelOutput(result: ToolResult, options: { audio?: AiSdkAudioMode } = {}): AiSdkModelOutput {
  const parts = toResultParts(result);
  if (result.isError || parts.every((part) => part.type === 'text')) {
    const text = parts.map((part) => (part.type === 'text' ? part.text : describeMedia(part))).join('\n');
    return result.isError ? { type: 'error-text', value: text } : { type: 'text', value: text };
  }
  const value: ContentPart[] = parts.map((part): ContentPart => {
    switch (part.type) {
      case 'text':
        return { type: 'text', text: part.text };
      case 'image':
        return { type: 'image-data', data: part.data, mediaType: part.mimeType };
      case 'audio':
        // Few providers take audio in tool results; OpenAI rejects it. Described unless asked for.
        return options.audio === 'file-data' ? { type: 'file-data', data: part.data, mediaType: part.mimeType } : { type: 'text', text: describeMedia(part) };
      case 'file':
        return { type: 'file-data', data: part.data, mediaType: part.mimeType, filename: part.filename };
    }
  });
  return { type: 'content', value };
}

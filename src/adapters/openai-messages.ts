/**
 * @module adapters/openai-messages
 * Tool results as OpenAI input: Chat Completions tool messages and Responses `function_call_output`
 * items. The types are structural (assignable to the `openai` package's own), so this module needs
 * no runtime dependency.
 *
 * Media: the Responses API takes images and files inside `function_call_output` (`input_image`,
 * `input_file`), so they go there. Chat Completions tool messages take text only ("Image URLs are
 * only allowed for messages with role 'user'"), so there the tool message describes each item and,
 * with `chatMedia: 'user-message'`, one user message after the tool messages carries the images
 * (`image_url` data URLs), WAV/MP3 audio (`input_audio`) and PDFs (`file`).
 */

import { describeMedia, type ResultPart } from './result-parts.js';

/** A Chat Completions tool message. */
export interface OpenAIChatToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** A content part of a Chat Completions user message. */
export type OpenAIChatUserContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' } }
  | { type: 'input_audio'; input_audio: { data: string; format: 'wav' | 'mp3' } }
  | { type: 'file'; file: { file_data: string; filename: string } };

/** A Chat Completions user message (used to carry media returned by tools). */
export interface OpenAIChatUserMessage {
  role: 'user';
  content: OpenAIChatUserContentPart[];
}

/** A content part of a Responses `function_call_output`. */
export type OpenAIResponsesOutputPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' }
  | { type: 'input_file'; file_data: string; filename: string };

/** A Responses `function_call_output` input item. */
export interface OpenAIFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string | OpenAIResponsesOutputPart[];
}

/** Where Chat Completions media goes. */
export type ChatMediaMode = 'user-message' | 'text';

/** The outcome of one tool call, before it is shaped for an API. */
export interface ToolCallOutcome {
  callId: string;
  name: string;
  /** `false` for a result with `isError: true` and for calls that could not run. */
  ok: boolean;
  parts: ResultPart[];
}

const ERROR_PREFIX = 'Error: ';

/** Chat Completions messages for a batch of tool calls: one tool message each, then (maybe) one user message with their media. */
export function toChatMessages(outcomes: readonly ToolCallOutcome[], chatMedia: ChatMediaMode): Array<OpenAIChatToolMessage | OpenAIChatUserMessage> {
  const messages: Array<OpenAIChatToolMessage | OpenAIChatUserMessage> = [];
  const media: OpenAIChatUserContentPart[] = [];
  for (const outcome of outcomes) {
    const lines: string[] = [];
    for (const part of outcome.parts) {
      if (part.type === 'text') {
        lines.push(part.text);
        continue;
      }
      const chatPart = chatMedia === 'user-message' ? toChatMediaPart(part) : undefined;
      if (chatPart === undefined) {
        lines.push(describeMedia(part));
        continue;
      }
      media.push({ type: 'text', text: `${describeMedia(part)} from the call ${outcome.callId} (${outcome.name}):` }, chatPart);
      lines.push(`${describeMedia(part)} (attached in the next user message)`);
    }
    const text = lines.join('\n');
    messages.push({ role: 'tool', tool_call_id: outcome.callId, content: outcome.ok ? text : `${ERROR_PREFIX}${text}` });
  }
  if (media.length > 0) messages.push({ role: 'user', content: [{ type: 'text', text: 'Media returned by the tool calls above:' }, ...media] });
  return messages;
}

function toChatMediaPart(part: Exclude<ResultPart, { type: 'text' }>): OpenAIChatUserContentPart | undefined {
  if (part.type === 'image') return { type: 'image_url', image_url: { url: `data:${part.mimeType};base64,${part.data}` } };
  if (part.type === 'audio') {
    const format = audioFormat(part.mimeType);
    return format === undefined ? undefined : { type: 'input_audio', input_audio: { data: part.data, format } };
  }
  if (part.mimeType === 'application/pdf') return { type: 'file', file: { file_data: `data:${part.mimeType};base64,${part.data}`, filename: part.filename } };
  return undefined;
}

function audioFormat(mimeType: string): 'wav' | 'mp3' | undefined {
  if (/^audio\/(x-)?wav$|^audio\/wave$/.test(mimeType)) return 'wav';
  if (/^audio\/(mpeg|mp3)$/.test(mimeType)) return 'mp3';
  return undefined;
}

/** A Responses `function_call_output` for one tool call: text alone as a string, media as parts. */
export function toFunctionCallOutput(outcome: ToolCallOutcome): OpenAIFunctionCallOutput {
  const parts: OpenAIResponsesOutputPart[] = [];
  for (const part of outcome.parts) {
    if (part.type === 'text') parts.push({ type: 'input_text', text: part.text });
    else if (part.type === 'image') parts.push({ type: 'input_image', image_url: `data:${part.mimeType};base64,${part.data}`, detail: 'auto' });
    else if (part.type === 'file') parts.push({ type: 'input_file', file_data: `data:${part.mimeType};base64,${part.data}`, filename: part.filename });
    else parts.push({ type: 'input_text', text: describeMedia(part) });
  }
  if (!outcome.ok) {
    const first = parts[0];
    if (first?.type === 'input_text') parts[0] = { ...first, text: `${ERROR_PREFIX}${first.text}` };
    else parts.unshift({ type: 'input_text', text: ERROR_PREFIX.trim() });
  }
  const textOnly = parts.every((part) => part.type === 'input_text');
  return {
    type: 'function_call_output',
    call_id: outcome.callId,
    output: textOnly ? parts.map((part) => (part.type === 'input_text' ? part.text : '')).join('\n') : parts,
  };
}

import { describe, expect, test } from 'vitest';
import type { ToolResult } from '../result/tool-result.js';
import { toAiSdkModelOutput } from './ai-sdk-output.js';
import { toChatMessages, toFunctionCallOutput } from './openai-messages.js';
import { EMPTY_RESULT_TEXT, resultToText, toResultParts } from './result-parts.js';

const PNG = 'iVBORw0KGgo=';
const result = (content: ToolResult['content'], extra: Partial<ToolResult> = {}): ToolResult => ({ isError: false, content, ...extra });

describe('toResultParts', () => {
  test('maps every content type, keeping order; blobs by MIME type', () => {
    const parts = toResultParts(
      result([
        { type: 'text', text: 'a' },
        { type: 'resource', resource: { uri: 'file:///x/pic.png', mimeType: 'image/png', blob: PNG } },
        { type: 'resource', resource: { uri: 'file:///x/doc.pdf?v=2', mimeType: 'application/pdf', blob: 'JVBERi0=' } },
        { type: 'resource', resource: { uri: 'memo://t', text: 'hello' } },
        { type: 'resource_link', uri: 'memo://l', name: 'l', description: 'a link' },
      ]),
    );
    expect(parts).toEqual([
      { type: 'text', text: 'a' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'file', data: 'JVBERi0=', mimeType: 'application/pdf', filename: 'doc.pdf' },
      { type: 'text', text: '[resource memo://t]\nhello' },
      { type: 'text', text: '[resource link memo://l (l, a link)]' },
    ]);
  });

  test('structuredContent stands in for missing content; an empty result still says something', () => {
    expect(toResultParts(result([], { structuredContent: { sum: 5 } }))).toEqual([{ type: 'text', text: '{"sum":5}' }]);
    expect(toResultParts(result([]))).toEqual([{ type: 'text', text: EMPTY_RESULT_TEXT }]);
    expect(resultToText(result([{ type: 'image', data: PNG, mimeType: 'image/png' }]))).toBe('[image image/png, 8 bytes]');
  });
});

describe('AI SDK model output', () => {
  test('text as text, media as content parts, audio described unless asked for, isError as error-text', () => {
    expect(toAiSdkModelOutput(result([{ type: 'text', text: 'hi' }]))).toEqual({ type: 'text', value: 'hi' });
    const media = result([{ type: 'text', text: 'see' }, { type: 'image', data: PNG, mimeType: 'image/png' }, { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' }]);
    expect(toAiSdkModelOutput(media)).toEqual({
      type: 'content',
      value: [{ type: 'text', text: 'see' }, { type: 'image-data', data: PNG, mediaType: 'image/png' }, { type: 'text', text: '[audio audio/wav, 4 bytes]' }],
    });
    expect(toAiSdkModelOutput(media, { audio: 'file-data' })).toMatchObject({ value: [{}, {}, { type: 'file-data', mediaType: 'audio/wav' }] });
    expect(toAiSdkModelOutput({ ...media, isError: true })).toEqual({ type: 'error-text', value: 'see\n[image image/png, 8 bytes]\n[audio audio/wav, 4 bytes]' });
  });
});

describe('OpenAI messages', () => {
  const image = { callId: 'c1', name: 'shot', ok: true, parts: [{ type: 'image' as const, data: PNG, mimeType: 'image/png' }] };

  test("chatMedia 'text' only describes media", () => {
    expect(toChatMessages([image], 'text')).toEqual([{ role: 'tool', tool_call_id: 'c1', content: '[image image/png, 8 bytes]' }]);
  });

  test('audio that Chat Completions cannot take stays a description', () => {
    const messages = toChatMessages([{ callId: 'c2', name: 'rec', ok: true, parts: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/ogg' }] }], 'user-message');
    expect(messages).toEqual([{ role: 'tool', tool_call_id: 'c2', content: '[audio audio/ogg, 3 bytes]' }]);
  });

  test('a failed call with an image: the error marker comes first', () => {
    expect(toFunctionCallOutput({ ...image, ok: false })).toEqual({
      type: 'function_call_output',
      call_id: 'c1',
      output: [{ type: 'input_text', text: 'Error:' }, { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' }],
    });
    expect(toFunctionCallOutput({ callId: 'c3', name: 'x', ok: false, parts: [{ type: 'text', text: 'boom' }] })).toEqual({ type: 'function_call_output', call_id: 'c3', output: 'Error: boom' });
  });
});

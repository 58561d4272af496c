/**
 * @module adapters/langchain-media
 * Moves images, audio and files out of tool messages into one user message after them. Chat
 * Completions accepts media only in user messages ("Image URLs are only allowed for messages with role
 * 'user'"), and @langchain/openai drops non-text blocks from tool messages (Chat Completions) or sends
 * them as JSON text (Responses). Providers that take media in tool results (Anthropic, Gemini) do
 * not need this. Each moved item leaves a line in its tool message saying where it went.
 */

import { HumanMessage, ToolMessage, type BaseMessage, type ContentBlock } from '@langchain/core/messages';

type MediaBlock = ContentBlock.Multimodal.Image | ContentBlock.Multimodal.Audio | ContentBlock.Multimodal.File | ContentBlock.Multimodal.Video;

/** The messages with tool-result media moved to user messages; messages without media are kept as they are. */
export function moveToolMediaToUserMessages(messages: readonly BaseMessage[]): BaseMessage[] {
  const out: BaseMessage[] = [];
  let pending: ContentBlock.Standard[] = [];
  const flush = (): void => {
    if (pending.length === 0) return;
    out.push(new HumanMessage({ contentBlocks: [{ type: 'text', text: 'Media returned by the tool calls above:' }, ...pending] }));
    pending = [];
  };
  for (const message of messages) {
    if (!ToolMessage.isInstance(message)) {
      flush();
      out.push(message);
      continue;
    }
    const blocks = typeof message.content === 'string' ? [] : message.contentBlocks;
    const media = blocks.filter(isMediaBlock);
    if (media.length === 0) {
      out.push(message);
      continue;
    }
    const lines = blocks.map((block) => (block.type === 'text' ? block.text : isMediaBlock(block) ? `${describe(block)} (attached in the next user message)` : ''));
    out.push(
      new ToolMessage({
        content: lines.filter((line) => line !== '').join('\n'),
        tool_call_id: message.tool_call_id,
        ...(message.name === undefined ? {} : { name: message.name }),
        ...(message.id === undefined ? {} : { id: message.id }),
        ...(message.status === undefined ? {} : { status: message.status }),
        artifact: message.artifact,
        metadata: message.metadata,
      }),
    );
    for (const block of media) pending.push({ type: 'text', text: `${describe(block)} from the call ${message.tool_call_id}${message.name === undefined ? '' : ` (${message.name})`}:` }, block);
  }
  flush();
  return out;
}

function isMediaBlock(block: ContentBlock.Standard): block is MediaBlock {
  return block.type === 'image' || block.type === 'audio' || block.type === 'file' || block.type === 'video';
}

function describe(block: MediaBlock): string {
  const data = 'data' in block ? block.data : undefined;
  const size = typeof data === 'string' ? `, ${Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0)} bytes` : data instanceof Uint8Array ? `, ${data.length} bytes` : '';
  return `[${block.type} ${block.mimeType ?? 'unknown type'}${size}]`;
}

/**
 * @module cli/chat/chat-session
 * The agent behind `switchboard chat`: a LangGraph agent (`createAgent` from langchain 1.x) over a
 * `ChatOpenAI` model and the client's tools through the switchboard middleware, so tools that appear
 * or come back are offered at the next model call without rebuilding anything. A turn is streamed as
 * typed events (`token`, `tool-start`, `tool-end`, `done`) from LangGraph's `streamEvents`; the
 * conversation is kept between turns.
 */

import { HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent } from 'langchain';
import { createLangChainToolset, createSwitchboardMiddleware, type LangChainToolset } from '../../adapters/langchain.js';
import { isToolResult, resultToText } from '../../adapters/result-parts.js';
import type { MultiServerClient } from '../../client/multi-server-client.js';
import type { ToolSearchOption } from '../../client/search/tool-search-mode.js';
import type { ModelEndpoint } from './model-endpoint.js';

/** The system prompt of a chat unless `--system` replaces it. */
export const DEFAULT_SYSTEM_PROMPT =
  'You are a helpful assistant with tools from MCP servers. Use a tool when it helps answer; when a tool reports an error, say what failed instead of guessing.';

/** Something that happened during a turn, in order. */
export type ChatEvent =
  | { type: 'token'; text: string }
  | { type: 'tool-start'; id: string; tool: string; server: string | undefined; input: unknown }
  | { type: 'tool-end'; id: string; tool: string; server: string | undefined; durationMs: number; ok: boolean; output: string }
  | { type: 'done'; answer: string };

/** Options of {@link ChatSession}. */
export interface ChatSessionOptions {
  client: MultiServerClient;
  endpoint: ModelEndpoint;
  /** @default DEFAULT_SYSTEM_PROMPT */
  systemPrompt?: string;
  /** Retries of a failed model request. @default 1 */
  maxRetries?: number;
  /** Progressive discovery: with a large catalog the model gets search_tools and call_tool. @default 'auto' */
  toolSearch?: ToolSearchOption;
}

/** A conversation with an agent that uses the client's tools. */
export class ChatSession {
  readonly toolset: LangChainToolset;
  readonly #agent;
  #history: BaseMessage[] = [];

  constructor(options: ChatSessionOptions) {
    this.toolset = createLangChainToolset(options.client, { toolSearch: options.toolSearch ?? 'auto' });
    const model = new ChatOpenAI({
      model: options.endpoint.model,
      // Local servers take no key, but the client insists on one.
      apiKey: options.endpoint.apiKey ?? 'not-needed',
      configuration: { baseURL: options.endpoint.baseUrl },
      maxRetries: options.maxRetries ?? 1,
    });
    this.#agent = createAgent({
      model,
      tools: [],
      systemPrompt: options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
      // Chat Completions takes images only in user messages.
      middleware: [createSwitchboardMiddleware(this.toolset, { toolMedia: 'user-message' })],
    });
  }

  /** Runs one turn: the question, any tool calls, the answer. The history grows only when the turn completes. */
  async *turn(question: string, signal?: AbortSignal): AsyncGenerator<ChatEvent> {
    const messages = [...this.#history, new HumanMessage(question)];
    const started = new Map<string, number>();
    let answer = '';
    let rootRunId: string | undefined;
    let finalMessages: BaseMessage[] | undefined;
    const stream = this.#agent.streamEvents({ messages }, { version: 'v2', ...(signal === undefined ? {} : { signal }) });
    for await (const event of stream) {
      rootRunId ??= event.run_id;
      if (event.event === 'on_chat_model_stream') {
        const text = textOf(event.data.chunk);
        if (text === '') continue;
        answer += text;
        yield { type: 'token', text };
      } else if (event.event === 'on_chat_model_end') {
        // A new model call starts a new answer; what came before it preceded tool calls.
        if (hasToolCalls(event.data.output)) answer = '';
      } else if (event.event === 'on_tool_start') {
        started.set(event.run_id, performance.now());
        yield { type: 'tool-start', id: event.run_id, tool: event.name, server: serverOf(event.metadata), input: event.data.input };
      } else if (event.event === 'on_tool_end') {
        const output: unknown = event.data.output;
        const ok = !(ToolMessage.isInstance(output) && output.status === 'error');
        const text = ToolMessage.isInstance(output) ? (isToolResult(output.artifact) ? resultToText(output.artifact) : output.text) : typeof output === 'string' ? output : JSON.stringify(output);
        yield { type: 'tool-end', id: event.run_id, tool: event.name, server: serverOf(event.metadata), durationMs: performance.now() - (started.get(event.run_id) ?? performance.now()), ok, output: text };
      } else if (event.event === 'on_chain_end' && event.run_id === rootRunId) {
        const output: unknown = event.data.output;
        const state = typeof output === 'object' && output !== null ? (output as { messages?: unknown }).messages : undefined;
        if (Array.isArray(state)) finalMessages = state as BaseMessage[];
      }
    }
    if (finalMessages !== undefined) this.#history = finalMessages;
    yield { type: 'done', answer };
  }

  /** Forgets the conversation. */
  reset(): void {
    this.#history = [];
  }

  /** Stops following the client's catalog events. */
  close(): void {
    this.toolset.close();
  }
}

function textOf(chunk: unknown): string {
  if (typeof chunk !== 'object' || chunk === null) return '';
  const text = (chunk as { text?: unknown }).text;
  return typeof text === 'string' ? text : '';
}

function hasToolCalls(message: unknown): boolean {
  const calls = typeof message === 'object' && message !== null ? (message as { tool_calls?: unknown }).tool_calls : undefined;
  return Array.isArray(calls) && calls.length > 0;
}

function serverOf(metadata: unknown): string | undefined {
  const server = typeof metadata === 'object' && metadata !== null ? (metadata as { server?: unknown }).server : undefined;
  return typeof server === 'string' && server !== '' ? server : undefined;
}

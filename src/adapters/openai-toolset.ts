/**
 * @module adapters/openai-toolset
 * OpenAI function calling over a `MultiServerClient`: tool definitions for Chat Completions and the
 * Responses API (provider-safe schemas, optional strict mode), and an executor that runs the model's
 * tool calls — concurrently — through `client.callTool` by exposed name, so definitions handed out
 * before a restart or a `list_changed` keep working. Failures become tool output the model can read.
 * Never more than the API's 128 tools: past it (or when `toolSearch` says so) the model gets
 * `search_tools` and `call_tool` instead of every definition.
 */

import type { CatalogTool } from '../client/multi-server-client.js';
import type { CallOptions } from '../connection/call-options.js';
import type { AdapterClient } from './adapter-client.js';
import { CatalogView, type ToolsChange } from './catalog-view.js';
import {
  toChatMessages,
  toFunctionCallOutput,
  type ChatMediaMode,
  type OpenAIChatToolMessage,
  type OpenAIChatUserMessage,
  type OpenAIFunctionCallOutput,
  type ToolCallOutcome,
} from './openai-messages.js';
import { toProviderSchema, type ProviderSchema } from './provider-schema.js';
import { toResultParts } from './result-parts.js';
import { OPENAI_MAX_TOOLS, ToolSearchOffer } from './tool-search-offer.js';
import { fitsNativeToolSearch, toDeferredResponsesTools, type OpenAIDeferredFunctionTool, type OpenAIToolSearchTool } from './openai-native-search.js';
import type { ToolSearchOption } from '../client/search/tool-search-mode.js';
import { CALL_TOOL_NAME, SEARCH_TOOLS_NAME } from '../client/search/discovery-tools.js';
import { ErrorCode, SwitchboardError } from '../errors.js';
import { isCallerAbort, toolFailureText } from './tool-failure.js';

/** A Chat Completions function tool (assignable to the `openai` package's `ChatCompletionTool`). */
export interface OpenAIChatFunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown>; strict?: boolean };
}

/** A Responses function tool (assignable to the `openai` package's `FunctionTool`). */
export interface OpenAIResponsesFunctionTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  strict: boolean;
}

/** Options of {@link toChatCompletionsTools}, {@link toResponsesTools} and {@link OpenAIToolset}. */
export interface OpenAIToolOptions {
  /**
   * Ask for strict mode (the model's arguments always match the schema). Applied per tool where the
   * schema allows it; other tools are sent with `strict: false`. @default false
   */
  strict?: boolean;
  /** Only these tools. @default every tool */
  filter?: (tool: CatalogTool) => boolean;
}

/** Options of {@link OpenAIToolset}. */
export interface OpenAIToolsetOptions extends OpenAIToolOptions {
  /**
   * Chat Completions only: where images, WAV/MP3 audio and PDFs returned by tools go. `'user-message'`
   * sends them in one user message after the tool messages (tool messages take text only);
   * `'text'` only describes them. @default 'user-message'
   */
  chatMedia?: ChatMediaMode;
  /** Deadline of each call. @default the server's `callTimeout` */
  timeoutMs?: number;
  /**
   * Progressive discovery: `'on'`, `'auto'` (on above a tool count or token budget) or `'off'`, or
   * settings with thresholds and pinned tools. Unset: every tool, unless there are more than 128 (the
   * API's limit), then tool search. `'off'` with more than 128 tools throws a LimitExceeded error.
   */
  toolSearch?: ToolSearchOption;
  /**
   * Responses API with gpt-5.4 or later: where tool search is in force, use OpenAI's own instead of
   * ours — `responsesToolsWithSearch()` sends every tool with `defer_loading: true` (pinned ones eager) and the
   * `tool_search` tool, and the model's calls come by the tools' own names. Past 127 tools, and on
   * Chat Completions (which has no tool search), `search_tools` and `call_tool` as without it. @default false
   */
  nativeToolSearch?: boolean;
}

/** Options of one batch of tool calls. */
export interface RunToolCallsOptions {
  /** Cancels every call of the batch; a cancelled batch rejects instead of returning tool errors. */
  signal?: AbortSignal;
}

interface PreparedTool {
  tool: CatalogTool;
  schema: ProviderSchema;
}

/** What the toolset offers at one catalog version. */
interface OfferedTools {
  /** Every tool that may be called by its own name, prepared. */
  prepared: Map<string, PreparedTool>;
  /** The names offered (every tool, or the meta-tools and pinned ones). */
  offered: string[];
  /** With OpenAI's own search in force: every tool's name, sent deferred; else undefined. */
  native: string[] | undefined;
  /** Pinned tools: never deferred. */
  eager: Set<string>;
}

/** Chat Completions `tools` for a list of catalog tools. */
export function toChatCompletionsTools(tools: readonly CatalogTool[], options: OpenAIToolOptions = {}): OpenAIChatFunctionTool[] {
  return prepare(tools, options).map(({ tool, schema }) => ({
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: schema.parameters,
      ...(options.strict === true ? { strict: schema.strict } : {}),
    },
  }));
}

/** Responses API `tools` for a list of catalog tools. */
export function toResponsesTools(tools: readonly CatalogTool[], options: OpenAIToolOptions = {}): OpenAIResponsesFunctionTool[] {
  return prepare(tools, options).map(({ tool, schema }) => ({
    type: 'function',
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    parameters: schema.parameters,
    strict: schema.strict,
  }));
}

function prepare(tools: readonly CatalogTool[], options: OpenAIToolOptions): PreparedTool[] {
  const count = options.filter === undefined ? tools.length : tools.filter(options.filter).length;
  if (count > OPENAI_MAX_TOOLS) {
    throw new SwitchboardError(ErrorCode.LimitExceeded, `OpenAI accepts at most ${OPENAI_MAX_TOOLS} tools in one request, and ${count} were given. Use createOpenAIToolset(client, { toolSearch: 'auto' }) so the model gets search_tools and call_tool instead, or pass fewer tools (filter).`, { details: { tools: count, max: OPENAI_MAX_TOOLS, retryable: false } });
  }
  return tools.filter((tool) => options.filter?.(tool) ?? true).map((tool) => ({ tool, schema: toProviderSchema(tool.inputSchema, { strict: options.strict === true }) }));
}

/**
 * OpenAI tools for every tool of a client, following catalog changes, with an executor for the
 * model's tool calls.
 *
 * @example
 * ```ts
 * const toolset = createOpenAIToolset(client);
 * const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is 2 + 3?' }];
 * for (;;) {
 *   const completion = await openai.chat.completions.create({ model, messages, tools: toolset.chatCompletionsTools() });
 *   const message = completion.choices[0].message;
 *   messages.push(message);
 *   if (!message.tool_calls?.length) break;
 *   messages.push(...(await toolset.runChatCompletionsToolCalls(message.tool_calls)));
 * }
 * ```
 */
export class OpenAIToolset {
  readonly #client: AdapterClient;
  readonly #options: OpenAIToolsetOptions;
  readonly #view: CatalogView<OfferedTools>;
  readonly #search: ToolSearchOffer;

  constructor(client: AdapterClient, options: OpenAIToolsetOptions = {}) {
    this.#client = client;
    this.#options = options;
    this.#search = new ToolSearchOffer(client, options.toolSearch, { ...(options.filter === undefined ? {} : { allow: options.filter }), limit: { max: OPENAI_MAX_TOOLS, provider: 'OpenAI' } });
    const withoutFilter = { ...options, filter: undefined };
    // Prepared per catalog version: the offered tools (every tool, or the meta-tools and pinned ones) and, for OpenAI's own search, every tool.
    this.#view = new CatalogView(client, () => {
      const offer = this.#search.current();
      const visible = offer.searching && options.nativeToolSearch === true ? this.#search.discovery.visibleTools() : [];
      const native = visible.length > 0 && fitsNativeToolSearch(visible.length);
      const prepared = new Map(prepare(native ? [...offer.tools.filter((tool) => tool.server === ''), ...visible] : offer.tools, withoutFilter).map((entry) => [entry.tool.name, entry]));
      return { prepared, offered: offer.tools.map((tool) => tool.name), native: native ? visible.map((tool) => tool.name) : undefined, eager: new Set(this.#search.discovery.pinned().map((tool) => tool.name)) };
    });
  }

  /** True when the model is offered search_tools and call_tool instead of every definition. */
  get searching(): boolean {
    return this.#search.current().searching;
  }

  /** Chat Completions `tools` for the catalog as it is now. */
  chatCompletionsTools(): OpenAIChatFunctionTool[] {
    return toChatCompletionsTools(this.#tools(), { ...this.#options, filter: undefined });
  }

  /** True when {@link responsesToolsWithSearch} hands the search to OpenAI (`nativeToolSearch`, tool search in force, at most 127 tools). */
  get nativeSearching(): boolean {
    return this.#view.current.native !== undefined;
  }

  /** Responses API `tools` for the catalog as it is now. */
  responsesTools(): OpenAIResponsesFunctionTool[] {
    return toResponsesTools(this.#tools(), { ...this.#options, filter: undefined });
  }

  /**
   * Responses API `tools` with OpenAI's own tool search where it applies ({@link nativeSearching}):
   * `{ type: 'tool_search' }` and every tool with `defer_loading: true` (pinned ones eager); otherwise
   * the same as {@link responsesTools}.
   */
  responsesToolsWithSearch(): Array<OpenAIResponsesFunctionTool | OpenAIToolSearchTool | OpenAIDeferredFunctionTool> {
    const { native, prepared, eager } = this.#view.current;
    if (native === undefined) return this.responsesTools();
    return toDeferredResponsesTools(native.flatMap((name) => prepared.get(name) ?? []), eager);
  }

  #tools(): CatalogTool[] {
    const { offered, prepared } = this.#view.current;
    return offered.flatMap((name) => prepared.get(name)?.tool ?? []);
  }

  /**
   * Runs the tool calls of a Chat Completions assistant message, all at once, and returns the
   * messages to append: one `tool` message per call, in the order of the calls, then one `user`
   * message with their media when there is any (see `chatMedia`).
   */
  async runChatCompletionsToolCalls(toolCalls: ReadonlyArray<unknown> | null | undefined, options: RunToolCallsOptions = {}): Promise<Array<OpenAIChatToolMessage | OpenAIChatUserMessage>> {
    const calls = (toolCalls ?? []).map(readChatToolCall);
    const outcomes = await Promise.all(calls.map((call) => this.#run(call, options)));
    return toChatMessages(outcomes, this.#options.chatMedia ?? 'user-message');
  }

  /**
   * Runs the `function_call` items of a Responses API output, all at once, and returns one
   * `function_call_output` item per call (other items are ignored).
   */
  async runResponsesToolCalls(output: ReadonlyArray<unknown>, options: RunToolCallsOptions = {}): Promise<OpenAIFunctionCallOutput[]> {
    const calls = output.flatMap((item) => readResponsesFunctionCall(item) ?? []);
    const outcomes = await Promise.all(calls.map((call) => this.#run(call, options)));
    return outcomes.map(toFunctionCallOutput);
  }

  async #run(call: ParsedCall, options: RunToolCallsOptions): Promise<ToolCallOutcome> {
    const failed = (text: string): ToolCallOutcome => ({ callId: call.id, name: call.name, ok: false, parts: [{ type: 'text', text }] });
    if (call.problem !== undefined) return failed(call.problem);
    const parsed = parseArguments(call.arguments);
    if (typeof parsed === 'string') return failed(`The arguments of ${call.name} are not a JSON object (${parsed}); call it again with a JSON object.`);
    const callOptions: CallOptions = {
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(this.#options.timeoutMs === undefined ? {} : { timeoutMs: this.#options.timeoutMs }),
    };
    try {
      if (this.#search.isMetaCall(call.name)) {
        if (call.name === SEARCH_TOOLS_NAME) return { callId: call.id, name: call.name, ok: true, parts: toResultParts(this.#search.discovery.search(parsed).result) };
        if (call.name === CALL_TOOL_NAME) {
          const result = await this.#search.discovery.call(parsed, callOptions);
          return { callId: call.id, name: call.name, ok: !result.isError, parts: toResultParts(result) };
        }
      }
      const prepared = this.#view.current.prepared.get(call.name);
      const args = prepared === undefined ? parsed : prepared.schema.restoreArguments(parsed);
      const result = await this.#client.callTool(call.name, args, callOptions);
      return { callId: call.id, name: call.name, ok: !result.isError, parts: toResultParts(result) };
    } catch (error) {
      if (isCallerAbort(options.signal)) throw error;
      return failed(toolFailureText(error));
    }
  }

  /** Calls `listener` after each catalog change; returns the unsubscribe function. */
  onChange(listener: (change: ToolsChange) => void): () => void {
    return this.#view.onChange(listener);
  }

  /** Stops following the client's catalog events. Idempotent. */
  close(): void {
    this.#view.close();
  }
}

/** Creates an {@link OpenAIToolset}. */
export function createOpenAIToolset(client: AdapterClient, options: OpenAIToolsetOptions = {}): OpenAIToolset {
  return new OpenAIToolset(client, options);
}

interface ParsedCall {
  id: string;
  name: string;
  arguments: string;
  /** Why the call cannot run (a shape this executor does not handle). */
  problem?: string;
}

function readChatToolCall(value: unknown, index: number): ParsedCall {
  const call = isRecord(value) ? value : {};
  const id = typeof call.id === 'string' ? call.id : `call_${index}`;
  const fn = isRecord(call.function) ? call.function : undefined;
  if (fn === undefined || typeof fn.name !== 'string') {
    return { id, name: typeof call.type === 'string' ? call.type : 'unknown', arguments: '', problem: `Tool call ${id} is not a function call; only function tools are offered.` };
  }
  return { id, name: fn.name, arguments: typeof fn.arguments === 'string' ? fn.arguments : '' };
}

function readResponsesFunctionCall(value: unknown): ParsedCall | undefined {
  if (!isRecord(value) || value.type !== 'function_call') return undefined;
  const id = typeof value.call_id === 'string' ? value.call_id : '';
  const name = typeof value.name === 'string' ? value.name : '';
  return { id, name, arguments: typeof value.arguments === 'string' ? value.arguments : '', ...(id === '' || name === '' ? { problem: 'The function call has no call_id or name.' } : {}) };
}

/** The arguments as an object, or what is wrong with them. */
function parseArguments(text: string): Record<string, unknown> | string {
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return error instanceof Error ? error.message : 'invalid JSON';
  }
  return isRecord(parsed) ? parsed : `got ${Array.isArray(parsed) ? 'an array' : typeof parsed}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

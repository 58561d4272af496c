/**
 * @module adapters/openai-native-search
 * OpenAI's own tool search (Responses API, gpt-5.4 and later): the `tool_search` tool plus function
 * tools marked `defer_loading: true`, whose parameter schemas the model loads when it searches (the
 * search runs at OpenAI; its `tool_search_call` / `tool_search_output` items need nothing from us, and
 * the model then emits an ordinary `function_call`). Pinned tools are sent as usual. The Chat
 * Completions API has no such tool, so this applies to `responsesTools()` only. OpenAI does not
 * document that deferred functions fall outside its 128-tool cap, so past it the toolset keeps its
 * own `search_tools` / `call_tool`.
 */

import type { CatalogTool } from '../client/multi-server-client.js';
import type { ProviderSchema } from './provider-schema.js';
import { OPENAI_MAX_TOOLS } from './tool-search-offer.js';

/** OpenAI's hosted tool-search tool, as the Responses API takes it. */
export interface OpenAIToolSearchTool {
  type: 'tool_search';
}

/** A Responses function tool that the model loads through `tool_search`. */
export interface OpenAIDeferredFunctionTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  strict: boolean;
  defer_loading?: boolean;
}

/** True when `count` tools fit one request together with the `tool_search` tool. */
export function fitsNativeToolSearch(count: number): boolean {
  return count + 1 <= OPENAI_MAX_TOOLS;
}

/** `tool_search` first, then every tool, deferred unless `eager` (the pinned tools) holds its name. */
export function toDeferredResponsesTools(tools: ReadonlyArray<{ tool: CatalogTool; schema: ProviderSchema }>, eager: ReadonlySet<string>): Array<OpenAIToolSearchTool | OpenAIDeferredFunctionTool> {
  return [
    { type: 'tool_search' },
    ...tools.map(({ tool, schema }) => ({
      type: 'function' as const,
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: schema.parameters,
      strict: schema.strict,
      ...(eager.has(tool.name) ? {} : { defer_loading: true }),
    })),
  ];
}

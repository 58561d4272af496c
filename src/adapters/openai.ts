/**
 * @module mcp-switchboard/openai
 * OpenAI function calling for the tools of a `MultiServerClient`: definitions for Chat Completions and
 * the Responses API, and an executor for the model's tool calls. No runtime dependency on the `openai`
 * package: the types are structural and assignable to its own.
 */

export { OpenAIToolset, createOpenAIToolset, toChatCompletionsTools, toResponsesTools } from './openai-toolset.js';
export type { OpenAIChatFunctionTool, OpenAIResponsesFunctionTool, OpenAIToolOptions, OpenAIToolsetOptions, RunToolCallsOptions } from './openai-toolset.js';
export type { OpenAIDeferredFunctionTool, OpenAIToolSearchTool } from './openai-native-search.js';
export type {
  ChatMediaMode,
  OpenAIChatToolMessage,
  OpenAIChatUserContentPart,
  OpenAIChatUserMessage,
  OpenAIFunctionCallOutput,
  OpenAIResponsesOutputPart,
} from './openai-messages.js';
export { toProviderSchema, DEFAULT_MAX_RECURSION } from './provider-schema.js';
export type { ProviderSchema, ProviderSchemaOptions } from './provider-schema.js';
export type { AdapterClient } from './adapter-client.js';
export { OPENAI_MAX_TOOLS } from './tool-search-offer.js';
export type { ToolSearchMode, ToolSearchOption, ToolSearchSettings } from '../client/search/tool-search-mode.js';
export type { ToolsChange } from './catalog-view.js';

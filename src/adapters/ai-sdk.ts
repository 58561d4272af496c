/**
 * @module mcp-switchboard/ai-sdk
 * Vercel AI SDK tools for a `MultiServerClient`: `jsonSchema` input schemas (provider-safe), calls by
 * exposed name (they survive restarts and list changes), images to the model through `toModelOutput`,
 * and a live tool set that follows `list_changed`. Needs `ai` 6.x.
 */

export { AiSdkToolset, createAiSdkTool, createAiSdkTools, createAiSdkToolset } from './ai-sdk-toolset.js';
export type { AiSdkToolOptions } from './ai-sdk-toolset.js';
export { toAiSdkModelOutput, isToolResult } from './ai-sdk-output.js';
export type { AiSdkAudioMode, AiSdkModelOutput } from './ai-sdk-output.js';
export { toProviderSchema } from './provider-schema.js';
export type { ProviderSchema, ProviderSchemaOptions } from './provider-schema.js';
export type { AdapterClient } from './adapter-client.js';
export type { ToolSearchMode, ToolSearchOption, ToolSearchSettings } from '../client/search/tool-search-mode.js';
export type { ToolsChange } from './catalog-view.js';

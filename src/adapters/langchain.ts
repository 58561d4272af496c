/**
 * @module mcp-switchboard/langchain
 * LangChain.js / LangGraph.js tools for a `MultiServerClient`: tools that route by name at call time
 * (they survive restarts and list changes), results as standard content blocks (images and audio
 * reach multimodal models), tool errors as error `ToolMessage`s, a toolset that follows
 * `tools-changed`, and `createAgent` middleware that keeps a running agent's tools current.
 * Needs `@langchain/core` 1.x and `langchain` 1.x.
 */

export { SwitchboardTool, isSwitchboardTool } from './langchain-tool.js';
export type { LangChainSchemaMode, LangChainToolOptions, SwitchboardToolMetadata } from './langchain-tool.js';
export { LangChainToolset, createLangChainToolset, createLangChainTools } from './langchain-toolset.js';
export type { LangChainToolsetOptions } from './langchain-toolset.js';
export { createSwitchboardMiddleware } from './langchain-middleware.js';
export type { SwitchboardMiddlewareOptions } from './langchain-middleware.js';
export { moveToolMediaToUserMessages } from './langchain-media.js';
export { toLangChainContent, toContentBlock } from './langchain-content.js';
export { toProviderSchema } from './provider-schema.js';
export type { ProviderSchema, ProviderSchemaOptions } from './provider-schema.js';
export type { AdapterClient } from './adapter-client.js';
export { ToolSearchTool } from './langchain-search-tool.js';
export type { ToolSearchMode, ToolSearchOption, ToolSearchSettings } from '../client/search/tool-search-mode.js';
export type { ToolsChange } from './catalog-view.js';

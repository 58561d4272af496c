/**
 * @module mcp-switchboard
 * The library's public API. Any export added here becomes public: named exports only, no wildcards
 * (an export-list test makes each addition visible in review).
 *
 * Importing it loads no MCP SDK and no zod: those load when first needed (an HTTP server, a config
 * to normalize). Keep it that way — a static import of either here costs every program ~100 ms and
 * ~20 MiB (`npm run bench` measures it).
 */

export { ErrorCode, SwitchboardError, ConfigError, isSwitchboardError, formatConfigIssue } from './errors.js';
export type { ConfigIssue, SwitchboardErrorOptions } from './errors.js';
export { noopLogger } from './logger.js';
export type { Logger, LogFields } from './logger.js';
export { loadConfig, normalizeConfig } from './config/config-entry.js';
export type { LoadConfigOptions, LoadedConfig } from './config/load-config.js';
export type { NormalizeConfigOptions, NormalizedConfig } from './config/normalize-config.js';
export { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_STARTUP_TIMEOUT_MS } from './config/server-spec.js';
export type { HttpServerSpec, NamingStrategy, ProtocolMode, ServerSpec, StdioServerSpec, SwitchboardConfig } from './config/server-spec.js';
export { ServerConnection } from './connection/server-connection.js';
export type { CallOptions } from './connection/call-options.js';
export type { ServerConnectionEvents, ServerConnectionOptions, ServerRequestHandler } from './connection/server-connection-options.js';
export { SERVER_STATES } from './connection/server-state.js';
export type { ServerState } from './connection/server-state.js';
export type { ProgressUpdate } from './connection/progress-update.js';
export type {
  GetPromptResult,
  Icon,
  JsonSchema,
  PromptDefinition,
  ReadResourceResult,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ServerInfo,
  ToolAnnotations,
  ToolDefinition,
} from './connection/mcp-types.js';
export { MultiServerClient } from './client/multi-server-client.js';
export { UI_CLIENT_CAPABILITY, UI_EXTENSION_ID, UI_MIME_TYPE, uiResourceUriOf } from './client/mcp-apps.js';
export { safeIcons } from './client/catalog/safe-icons.js';
export type { ToolTask, TaskStatus } from './client/tasks/task-types.js';
export type { TaskRef, ToolTasks } from './client/tasks/tool-tasks.js';
export type { WaitOptions as TaskWaitOptions } from './client/tasks/task-requests.js';
export type { TraceContext } from './metrics/trace-context.js';
export type { OutputValidation } from './config/server-spec.js';
export type {
  CatalogPrompt,
  CatalogResource,
  CatalogResourceTemplate,
  CatalogTool,
  ConfigInput,
  MultiServerClientEvents,
  MultiServerClientOptions,
  ServerStatus,
  ToolCallOptions,
  ToolsChangedReason,
} from './client/multi-server-client.js';
export type { CatalogStore, KnownToolNames } from './client/catalog/catalog-store.js';
export type { SubscribedResource } from './client/routing/resource-subscriptions.js';
export { isProviderSafeName } from './client/catalog/name-catalog.js';
export type { NameCollision, NameRename, NameReport, RenameReason } from './client/catalog/name-catalog.js';
export type { CatalogDiff } from './client/catalog/routed-catalog.js';
export { ToolIndex, DEFAULT_SEARCH_LIMIT } from './client/search/tool-index.js';
export type { IndexSyncResult, ToolMatch, ToolSearchOptions } from './client/search/tool-index.js';
export { HybridToolSearch } from './client/search/hybrid-tool-search.js';
export type { HybridSearchResult, HybridToolSearchOptions } from './client/search/hybrid-tool-search.js';
export { fetchEmbeddings } from './client/search/embeddings-endpoint.js';
export type { EmbeddingsEndpointOptions } from './client/search/embeddings-endpoint.js';
export { TOOL_SEARCH_MODES, estimateDefinitionTokens, resolveToolSearch } from './client/search/tool-search-mode.js';
export type { ResolvedToolSearch, ToolSearchMode, ToolSearchOption, ToolSearchSettings } from './client/search/tool-search-mode.js';
export { CALL_TOOL_NAME, SEARCH_TOOLS_NAME, ToolDiscovery, metaToolDefinitions } from './client/search/discovery-tools.js';
export type { DiscoveryClient, FoundTool, MetaToolDefinition } from './client/search/discovery-tools.js';
export type { ContentItem, MediaContentItem, ResourceContentItem, ResourceContents, ResourceLinkContentItem, TextContentItem, ToolResult } from './result/tool-result.js';
export { normalizeToolResult } from './result/normalize-tool-result.js';
export type { CallStats, ClientStats, LatencySummary, ServerStats, TimelinePoint, ToolStats } from './metrics/stats-types.js';
export type { OAuthGrant, OAuthIdentityProviderSettings, OAuthSettings } from './config/oauth-settings.js';
export { MemoryOAuthTokenStore, oauthStoreKey } from './auth/oauth-token-store.js';
export type { OAuthRecord, OAuthTokenStore } from './auth/oauth-token-store.js';
export { FileOAuthTokenStore } from './auth/file-oauth-token-store.js';
export type { FileOAuthTokenStoreOptions } from './auth/file-oauth-token-store.js';
export type { AuthorizationCallback, AuthorizationContext, AuthorizationUrlHandler } from './auth/authorization-callback.js';
export type { OAuthClientOptions } from './auth/oauth-client-options.js';
export type { OAuthAuthorizer } from './auth/oauth-authorizer.js';
export { DEFAULT_MAX_AUTHORIZATIONS_PER_REQUEST, DEFAULT_REFRESH_BEFORE_EXPIRY_MS } from './auth/oauth-defaults.js';
export { loadSecretKey } from './auth/secret-key.js';
export { VERSION } from './version.js';


/**
 * @module mcp-switchboard
 * The library's public API. Any export added here becomes public: named exports only, no wildcards
 * (an export-list test makes each addition visible in review).
 */

export { ErrorCode, SwitchboardError, ConfigError, isSwitchboardError, formatConfigIssue } from './errors.js';
export type { ConfigIssue, SwitchboardErrorOptions } from './errors.js';
export { noopLogger } from './logger.js';
export type { Logger, LogFields } from './logger.js';
export { loadConfig } from './config/load-config.js';
export type { LoadConfigOptions, LoadedConfig } from './config/load-config.js';
export { normalizeConfig } from './config/normalize-config.js';
export type { NormalizeConfigOptions, NormalizedConfig } from './config/normalize-config.js';
export { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_STARTUP_TIMEOUT_MS } from './config/server-spec.js';
export type { HttpServerSpec, NamingStrategy, ProtocolMode, ServerSpec, StdioServerSpec, SwitchboardConfig } from './config/server-spec.js';
export { ServerConnection } from './connection/server-connection.js';
export type { CallOptions, ServerConnectionEvents, ServerConnectionOptions, ServerRequestHandler } from './connection/server-connection.js';
export { SERVER_STATES } from './connection/server-state.js';
export type { ServerState } from './connection/server-state.js';
export type { ProgressUpdate } from './connection/lean-requester.js';
export type {
  GetPromptResult,
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
export type {
  CatalogPrompt,
  CatalogResource,
  CatalogResourceTemplate,
  CatalogTool,
  ConfigInput,
  MultiServerClientEvents,
  MultiServerClientOptions,
  ServerStatus,
  ToolsChangedReason,
} from './client/multi-server-client.js';
export { isProviderSafeName } from './client/name-catalog.js';
export type { NameCollision, NameRename, NameReport, RenameReason } from './client/name-catalog.js';
export type { CatalogDiff } from './client/routed-catalog.js';
export type { ContentItem, MediaContentItem, ResourceContentItem, ResourceContents, ResourceLinkContentItem, TextContentItem, ToolResult } from './result/tool-result.js';
export { normalizeToolResult } from './result/normalize-tool-result.js';
export { VERSION } from './version.js';
export { ServerRegistry, DATABASE_ENV } from './registry/server-registry.js';
export type { KeyRotation, ServerRegistryEvents, ServerRegistryOptions } from './registry/server-registry.js';
export { DEFAULT_DATABASE_PATH } from './registry/open-database.js';
export type { RegistryBackend } from './registry/open-database.js';
export type {
  ApiTokenInfo,
  AuditEntry,
  CreatedApiToken,
  RegisteredServer,
  RegisteredServerKind,
  RegisteredTemplate,
  RegistryChange,
  RegistryUser,
  UserRef,
} from './registry/registry-types.js';
export type { AddUserOptions, UserStore } from './registry/user-store.js';
export type { AddServerOptions, ServerStore, ServerViewer, UserServerConfig } from './registry/server-store.js';
export type { TemplateStore } from './registry/template-store.js';
export type { CreateTokenOptions, TokenStore } from './registry/token-store.js';
export type { AuditRecord, AuditStore } from './registry/audit-store.js';
export type { UserSecretStore } from './registry/user-secret-store.js';
export type { TenantView } from './registry/tenant-view.js';
export type { ServerTemplateInput, TemplateParameter } from './registry/server-template.js';
export { DEFAULT_TENANT_POLICY } from './registry/tenant-policy.js';
export type { PolicyRule, PolicyViolation, TenantPolicy } from './registry/tenant-policy.js';
export { ADDRESS_CATEGORIES, classifyAddress } from './registry/ip-address.js';
export type { AddressCategory, AddressClass } from './registry/ip-address.js';
export { createPinnedFetch } from './registry/pinned-fetch.js';
export type { PinnedFetch, PinnedFetchOptions } from './registry/pinned-fetch.js';
export type { HostResolver } from './registry/resolve-host.js';
export { ClientPool, DEFAULT_IDLE_TTL_MS, DEFAULT_MAX_CLIENTS } from './registry/client-pool.js';
export type { ClientLease, ClientPoolEvents, ClientPoolOptions, EvictionReason } from './registry/client-pool.js';
export { UserClient } from './registry/user-client.js';
export type { UserClientEvents } from './registry/user-client.js';
export { AuditWriter, DEFAULT_AUDIT_BATCH_SIZE, DEFAULT_AUDIT_FLUSH_MS } from './registry/audit-writer.js';
export type { AuditWriterOptions } from './registry/audit-writer.js';

/**
 * @module mcp-switchboard/registry
 * The per-user server registry, its tenant policy and the client pool: `mcp-switchboard/registry`.
 * A subpath of its own because it brings a database layer (and config validation) that programs using
 * only the client do not need to load.
 */

export { ServerRegistry, DATABASE_ENV } from './server-registry.js';
export type { KeyRotation, ServerRegistryEvents, ServerRegistryOptions } from './server-registry.js';
export type { RegistryBackend } from './open-database.js';
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
} from './registry-types.js';
export { DEFAULT_DATABASE_PATH } from './open-database.js';
export type { AddUserOptions, UserStore } from './user-store.js';
export type { AddServerOptions, ServerStore, ServerViewer, UserServerConfig } from './server-store.js';
export type { TemplateStore } from './template-store.js';
export type { CreateTokenOptions, TokenStore } from './token-store.js';
export type { AuditRecord, AuditStore } from './audit-store.js';
export type { UserSecretStore } from './user-secret-store.js';
export type { RegistryCatalogStore } from './registry-catalog-store.js';
export type { OAuthGrantInfo, OAuthPayload, OAuthServerStore } from './oauth-server-store.js';
export { OAUTH_SECRET_KIND, RegistryOAuthTokenStore } from './registry-oauth-token-store.js';
export type { TenantView } from './tenant-view.js';
export type { ServerTemplateInput, TemplateParameter } from './server-template.js';
export { DEFAULT_TENANT_POLICY } from './tenant-policy.js';
export type { PolicyRule, PolicyViolation, TenantPolicy } from './tenant-policy.js';
export { SECRET_MASK, maskSecret, maskUrl, maskValues } from './mask-secret.js';
export { userLoginTarget } from './user-login-target.js';
export type { UserLoginTarget } from './user-login-target.js';
export { ADDRESS_CATEGORIES, classifyAddress } from './ip-address.js';
export type { AddressCategory, AddressClass } from './ip-address.js';
export { createPinnedFetch } from './pinned-fetch.js';
export type { PinnedFetch, PinnedFetchOptions } from './pinned-fetch.js';
export type { HostResolver } from './resolve-host.js';
// The per-user pool lives in src/pool/ (it runs clients; the registry stores); its public names stay here.
export { ClientPool, DEFAULT_IDLE_TTL_MS, DEFAULT_MAX_CLIENTS, UserClient } from '../pool/index.js';
export type { ClientLease, ClientPoolEvents, ClientPoolOptions, ClientPoolTuning, EvictionReason, SharedConfig, UserClientEvents } from '../pool/index.js';
export {
  AuditWriter,
  DEFAULT_AUDIT_BATCH_SIZE,
  DEFAULT_AUDIT_CLOSE_TIMEOUT_MS,
  DEFAULT_AUDIT_FLUSH_MS,
  DEFAULT_AUDIT_MAX_BUFFERED,
  DEFAULT_AUDIT_MAX_RETRY_MS,
  DEFAULT_AUDIT_RETRY_MS,
} from './audit-writer.js';
export type { AuditDropReason, AuditWriterOptions, AuditWriterStats } from './audit-writer.js';
export { AccessStore } from './access-store.js';
export type { ClusterStore, ReplicaRecord } from './cluster-store.js';
export type { ReplicaStatsStore, ReplicaUserStats } from './replica-stats-store.js';
export type { CallLeaseStore, CallLeaseRequest } from './call-lease-store.js';
export type { SessionStateStore, StoredSessionState } from './session-state-store.js';
export { GroupStore } from './group-store.js';
export type { RegistryGroup } from './group-store.js';
export {
  accessScopeSchema,
  annotationFilterSchema,
  endpointInputSchema,
  endpointNamingSchema,
  parseAccessInput,
  rateLimitInputSchema,
  toolRuleInputSchema,
} from './access-types.js';
export type { AccessScope, AnnotationFilter, EndpointInput, EndpointNaming, EndpointRecord, RateLimit, RateLimitInput, ToolRule, ToolRuleInput } from './access-types.js';
export {
  annotationsPass,
  describeRule,
  effectiveAnnotations,
  evaluateToolPolicy,
  ruleMatches,
  rulesFor,
  scopeApplies,
  serverGlobMatches,
  toolGlobMatches,
} from './tool-policy.js';
export type { PolicyCaller, PolicyDecision, PolicyTool } from './tool-policy.js';
export { SqlBucketStore, refill, retryAfterMs } from './rate-bucket-store.js';
export type { BucketAnswer, BucketRequest, RateBucketStore } from './rate-bucket-store.js';

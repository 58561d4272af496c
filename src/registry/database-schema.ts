/**
 * @module registry/database-schema
 * The registry's tables as Kysely sees them. One schema for SQLite and PostgreSQL: ids are UUIDv7
 * text, flags are integers 0/1, timestamps are ISO 8601 text (UTC, millisecond precision, so they
 * sort as text), JSON is text. Secret values live only in the `secrets`/`secret` columns, encrypted
 * (see {@link SecretBox}).
 */

/** `users`: people and programs that own servers. */
export interface UsersTable {
  id: string;
  name: string;
  /** 1 for an administrator (not bound by the tenant policy). */
  is_admin: number;
  /** JSON `Partial<TenantPolicy>`: this user's explicit exceptions to the global policy, or null. */
  policy: string | null;
  /** JSON `ToolSearchSettings` of the user's gateway endpoint, or null for the default (migration 007). */
  tool_search?: string | null;
  created_at: string;
  updated_at: string;
}

/** `servers`: one MCP server entry; `owner_id` null for a shared (admin-defined) server. */
export interface ServersTable {
  id: string;
  owner_id: string | null;
  name: string;
  /** `http`, `stdio` or `template`. */
  kind: string;
  /** The template this server instantiates (kind `template`). */
  template_id: string | null;
  /** JSON: the config-file entry without its secret values (`apiKey`, `headers`, `env`, secret parameters). */
  entry: string;
  /** The secret values, encrypted; null when there are none. */
  secrets: string | null;
  enabled: number;
  created_at: string;
  updated_at: string;
}

/** `server_templates`: stdio servers an admin defined, which tenants instantiate with parameters. */
export interface ServerTemplatesTable {
  id: string;
  name: string;
  description: string | null;
  /** JSON: command, args, cwd, inheritEnv, parameters, env variable names (values are in `secrets`). */
  definition: string;
  /** The template's env values, encrypted; null when there are none. */
  secrets: string | null;
  created_at: string;
  updated_at: string;
}

/** `api_tokens`: bearer tokens of users. Only a prefix (to find the row) and a SHA-256 hash are kept. */
export interface ApiTokensTable {
  id: string;
  user_id: string;
  name: string | null;
  prefix: string;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

/** `audit_log`: one row per tool call. Arguments only when the pool is told to keep them. */
export interface AuditLogTable {
  id: string;
  user_id: string | null;
  user_name: string | null;
  server: string | null;
  tool: string | null;
  ok: number;
  error_code: string | null;
  duration_ms: number;
  arguments: string | null;
  created_at: string;
  /** The named endpoint the call came on (null: `/mcp` or the REST API without one). */
  endpoint?: string | null;
  /** A tool-policy decision this row records: `allow`, `deny`, `rate-limited`, `approved`, `rejected`. */
  decision?: string | null;
  /** The rule (or limit) that made the decision, as `id: summary`. */
  rule?: string | null;
}

/** `user_secrets`: per-user encrypted values such as OAuth tokens, keyed by kind and name. */
export interface UserSecretsTable {
  id: string;
  user_id: string;
  kind: string;
  name: string;
  secret: string;
  created_at: string;
  updated_at: string;
}

/** `settings`: registry-wide values (the global tenant policy, the id of the secret key in use). */
export interface SettingsTable {
  key: string;
  value: string;
}

/**
 * `tool_catalog`: the last tool names a server spec listed, shared by every user of that spec. Only
 * a keyed hash of the spec is kept (never the spec: it holds secrets).
 */
export interface ToolCatalogTable {
  spec_hash: string;
  /** JSON array of tool names, sorted. */
  tools: string;
  updated_at: string;
}

/** `user_groups`: named sets of users that grants and rules name. */
export interface UserGroupsTable {
  id: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

/** `group_members`: who belongs to which group. */
export interface GroupMembersTable {
  group_id: string;
  user_id: string;
  created_at: string;
}

/** `tool_rules`, `rate_limits`: one JSON definition each (see registry/access-types). */
export interface DefinitionTable {
  id: string;
  definition: string;
  created_at: string;
}

/** `endpoints`: named tool sets served at `/mcp/e/NAME`; `owner_id` null for an admin's endpoint. */
export interface EndpointsTable {
  id: string;
  name: string;
  owner_id: string | null;
  definition: string;
  created_at: string;
  updated_at: string;
}

/** `rate_buckets`: token buckets of rate limits, shared by the replicas of a cluster. */
export interface RateBucketsTable {
  key: string;
  tokens: number;
  /** When `tokens` was computed, in ms since the epoch (a string from PostgreSQL's bigint). */
  at_ms: number | string;
}

/**
 * `oauth_records`: what the gateway's authorization server stores, by model (`Client`, `Grant`,
 * `AccessToken`, …). `id_hash` is a SHA-256 of the id (a code or token is its own id: only its hash
 * is kept, and the payload never holds it).
 */
export interface OAuthRecordsTable {
  model: string;
  id_hash: string;
  /** JSON payload, without the id. */
  payload: string;
  grant_id: string | null;
  uid_hash: string | null;
  /** The registry user (`accountId`) the record belongs to. */
  account_id: string | null;
  client_id: string | null;
  created_at: string;
  expires_at: string | null;
  consumed_at: string | null;
}

/** `oauth_keys`: the authorization server's signing and cookie keys, encrypted. */
export interface OAuthKeysTable {
  id: string;
  secret: string;
  created_at: string;
}

/** `replicas`: the gateway processes on this database, with their heartbeat (migration 006). */
export interface ReplicasTable {
  id: string;
  /** Where the replica listens, as it was started (for operators), or null. */
  url: string | null;
  started_at: string;
  last_seen: string;
}

/** `ended_sessions`: 2025-era sessions a client ended, by the SHA-256 of their id (migration 006). */
export interface EndedSessionsTable {
  digest: string;
  user_id: string;
  ended_at: string;
}

/** `replica_user_stats`: each replica's snapshot of a user's `client.stats()` (JSON), migration 009. */
export interface ReplicaUserStatsTable {
  replica_id: string;
  user_id: string;
  stats: string;
  updated_at: string;
}

/** `call_leases`: calls running under a user's concurrent-call limit, cluster-wide (migration 008). */
export interface CallLeasesTable {
  id: string;
  user_id: string;
  /** The replica running the call (its lease counts while that replica is live). */
  replica_id: string;
  /** Renewed by the replica while the call runs; a lease past it no longer counts (a string from PostgreSQL's bigint). */
  expires_ms: number | string;
}

/** `session_states`: a 2025-era session's log level and subscriptions, by the SHA-256 of its id (migration 008). */
export interface SessionStatesTable {
  digest: string;
  user_id: string;
  /** JSON `{ logLevel?, subscriptions: [[exposedUri, server, uri], …] }`. */
  state: string;
  updated_at: string;
}

/** Every table of the registry. */
export interface RegistryDatabase {
  users: UsersTable;
  servers: ServersTable;
  server_templates: ServerTemplatesTable;
  api_tokens: ApiTokensTable;
  audit_log: AuditLogTable;
  user_secrets: UserSecretsTable;
  settings: SettingsTable;
  tool_catalog: ToolCatalogTable;
  user_groups: UserGroupsTable;
  group_members: GroupMembersTable;
  tool_rules: DefinitionTable;
  rate_limits: DefinitionTable;
  endpoints: EndpointsTable;
  rate_buckets: RateBucketsTable;
  oauth_records: OAuthRecordsTable;
  oauth_keys: OAuthKeysTable;
  replicas: ReplicasTable;
  ended_sessions: EndedSessionsTable;
  replica_user_stats: ReplicaUserStatsTable;
  call_leases: CallLeasesTable;
  session_states: SessionStatesTable;
}

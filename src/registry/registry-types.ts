/**
 * @module registry/registry-types
 * The records the registry hands out. None of them carries a secret in clear: secret values are
 * masked (see {@link maskSecret}), token hashes never leave the store.
 */

import type { ToolSearchSettings } from '../client/search/tool-search-mode.js';
import type { SwitchboardConfig } from '../config/server-spec.js';
import type { TenantPolicy } from './tenant-policy.js';

/** A user: a person or program that owns servers. */
export interface RegistryUser {
  id: string;
  name: string;
  /** Administrators are not bound by the tenant policy and manage shared servers and templates. */
  isAdmin: boolean;
  /** This user's explicit exceptions to the global policy. */
  policy?: Partial<TenantPolicy>;
  /** How this user's gateway endpoint offers tools (search_tools + call_tool, or every definition); unset: off. */
  toolSearch?: ToolSearchSettings;
  createdAt: string;
  updatedAt: string;
}

/** A user named by name, or the record itself (its `id` is what counts). */
export type UserRef = string | { id: string };

/** How a server is reached. `template`: an instance of an admin-defined stdio template. */
export type RegisteredServerKind = 'http' | 'stdio' | 'template';

/** A registered server as shown to people and programs: secrets masked. */
export interface RegisteredServer {
  id: string;
  name: string;
  /** The owner's user name; null for a shared server. */
  owner: string | null;
  shared: boolean;
  kind: RegisteredServerKind;
  /** The template, for kind `template`. */
  template?: string;
  enabled: boolean;
  /**
   * The entry as in a config file, with `apiKey`, header values, env values and secret template
   * parameters masked. Empty for a shared server shown to a tenant (only admins see how it is reached).
   */
  entry: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** A template as listed: fixed env values masked. */
export interface RegisteredTemplate {
  id: string;
  name: string;
  description?: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  parameters: Array<Record<string, unknown>>;
  createdAt: string;
  updatedAt: string;
}

/** An API token's public facts. The token itself is shown once, at creation. */
export interface ApiTokenInfo {
  id: string;
  userId: string;
  name?: string;
  /** Identifies the token in lists (`sb_<prefix>_…`). */
  prefix: string;
  createdAt: string;
  lastUsedAt?: string;
  expiresAt?: string;
}

/** A token just created: `token` is the only copy; store it now. */
export interface CreatedApiToken {
  token: string;
  info: ApiTokenInfo;
}

/** One tool call, as the audit log keeps it. */
export interface AuditEntry {
  id: string;
  userId?: string;
  userName?: string;
  server?: string;
  tool?: string;
  ok: boolean;
  /** The SwitchboardError code, or `TOOL_ERROR` for a result with `isError: true`. */
  errorCode?: string;
  durationMs: number;
  /** Only when the pool was told to keep arguments. */
  arguments?: unknown;
  createdAt: string;
  /** The named endpoint the call came on. */
  endpoint?: string;
  /** A tool-policy decision this entry records (`allow`, `deny`, `rate-limited`, `approved`, `rejected`). */
  decision?: string;
  /** The rule or limit that made the decision. */
  rule?: string;
}

/** A change to the registry, from this process or (remote) another one. */
export interface RegistryChange {
  /** `access`: groups, tool rules, endpoints or rate limits (see AccessStore). */
  kind: 'user' | 'server' | 'template' | 'policy' | 'access' | 'unknown';
  action: 'added' | 'updated' | 'removed' | 'unknown';
  /**
   * Whose servers it affects: a user id, null for shared servers and templates (everyone), undefined
   * when unknown (a change seen only as "the database changed").
   */
  userId: string | null | undefined;
  /** The server, template or user name. */
  name?: string;
  /** True when another process made the change. */
  remote: boolean;
}

/** Options of `ServerStore.add`. */
export interface AddServerOptions {
  /** @default the entry's `enabled`, else true */
  enabled?: boolean;
}

/** Who looks at a listing: the operator sees shared entries (masked); a tenant sees only their names. */
export type ServerViewer = 'operator' | 'owner';

/** The servers one user's client runs, ready for `MultiServerClient.connect`. */
export interface UserServerConfig {
  user: RegistryUser;
  config: SwitchboardConfig;
  /** Servers a tenant registered: their HTTP connections go through the address-pinning fetch. */
  tenantServers: ReadonlySet<string>;
  /** The tenant's servers that instantiate a template (its command line and env are the admin's). */
  templateServers?: ReadonlySet<string>;
  /** The tenant policy of this user; undefined for an admin. */
  policy: TenantPolicy | undefined;
  /** Entries skipped (invalid, or no longer allowed), one line each. */
  warnings: string[];
}

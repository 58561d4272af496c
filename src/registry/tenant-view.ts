/**
 * @module registry/tenant-view
 * The registry as one user sees it — what the gateway hands to an authenticated request. Every method
 * is bound to that user: there is no parameter through which another user's servers, tokens or audit
 * entries could be named. Shared servers are listed by name and kind only, and cannot be changed.
 */

import { ErrorCode, SwitchboardError } from '../errors.js';
import type { AuditStore } from './audit-store.js';
import type { ApiTokenInfo, AuditEntry, CreatedApiToken, RegisteredServer, RegisteredTemplate, RegistryUser } from './registry-types.js';
import type { AddServerOptions, ServerStore } from './server-store.js';
import type { TemplateStore } from './template-store.js';
import { policyViolationError } from './tenant-policy.js';
import type { CreateTokenOptions, TokenStore } from './token-store.js';

/** The stores a view is built on. */
export interface TenantViewStores {
  servers: ServerStore;
  templates: TemplateStore;
  tokens: TokenStore;
  audit: AuditStore;
}

/** One user's registry. */
export class TenantView {
  readonly user: RegistryUser;
  readonly #stores: TenantViewStores;

  constructor(stores: TenantViewStores, user: RegistryUser) {
    this.#stores = stores;
    this.user = user;
  }

  /** The user's servers (secrets masked) and the shared ones (name and kind only). */
  listServers(): Promise<RegisteredServer[]> {
    return this.#stores.servers.list({ id: this.user.id }, { viewer: 'owner' });
  }

  /** One of the user's servers, or a shared one; throws SERVER_NOT_FOUND otherwise. */
  async getServer(name: string): Promise<RegisteredServer> {
    const found = (await this.listServers()).find((server) => server.name === name && (server.owner === this.user.name || server.shared));
    if (found === undefined) throw new SwitchboardError(ErrorCode.ServerNotFound, `you have no server named "${name}"`, { server: name });
    return found;
  }

  /** Registers a server for this user (policy applies unless the user is an admin). */
  addServer(name: string, entry: Readonly<Record<string, unknown>>, options: AddServerOptions = {}): Promise<RegisteredServer> {
    return this.#stores.servers.add({ id: this.user.id }, name, entry, options);
  }

  /** Replaces the entry of one of the user's servers. */
  async updateServer(name: string, entry: Readonly<Record<string, unknown>>): Promise<RegisteredServer> {
    await this.#refuseShared(name);
    return this.#stores.servers.update({ id: this.user.id }, name, entry);
  }

  /** Enables or disables one of the user's servers. */
  async setServerEnabled(name: string, enabled: boolean): Promise<RegisteredServer> {
    await this.#refuseShared(name);
    return this.#stores.servers.setEnabled({ id: this.user.id }, name, enabled);
  }

  /** Removes one of the user's servers. */
  async removeServer(name: string): Promise<void> {
    await this.#refuseShared(name);
    return this.#stores.servers.remove({ id: this.user.id }, name);
  }

  /** The templates the user may instantiate (fixed env values masked). */
  listTemplates(): Promise<RegisteredTemplate[]> {
    return this.#stores.templates.list();
  }

  /** Creates an API token for this user; the token is returned once. */
  createToken(options: CreateTokenOptions = {}): Promise<CreatedApiToken> {
    return this.#stores.tokens.create({ id: this.user.id }, options);
  }

  /** The user's tokens (never the tokens themselves). */
  listTokens(): Promise<ApiTokenInfo[]> {
    return this.#stores.tokens.list({ id: this.user.id });
  }

  /** Revokes one of the user's tokens. */
  revokeToken(prefixOrId: string): Promise<void> {
    return this.#stores.tokens.revoke({ id: this.user.id }, prefixOrId);
  }

  /** The user's own tool calls, newest first. */
  auditLog(limit = 100): Promise<AuditEntry[]> {
    return this.#stores.audit.list({ user: { id: this.user.id }, limit });
  }

  async #refuseShared(name: string): Promise<void> {
    const servers = await this.#stores.servers.list({ id: this.user.id }, { viewer: 'owner' });
    const own = servers.some((server) => server.name === name && !server.shared);
    if (!own && servers.some((server) => server.name === name && server.shared)) {
      throw policyViolationError([{ rule: 'shared-read-only', message: `"${name}" is a shared server`, hint: 'only administrators change shared servers' }], `changing server "${name}"`);
    }
  }
}

/**
 * @module registry/server-store
 * Server entries, owned by a user or shared (owner null). Every query names its owner, so one user's
 * servers are never reached through another user's name; secret values are split off and stored
 * encrypted, bound to their row; tenant entries pass the {@link TenantPolicy} before they are stored
 * (and again when they are turned into specs, and for every connection).
 */

import type { Kysely } from 'kysely';
import { z } from 'zod';
import { assertEntryDepth } from '../config/entry-depth.js';
import type { ServerSpec } from '../config/server-spec.js';
import { ErrorCode, SwitchboardError } from '../errors.js';
import type { RegistryDatabase } from './database-schema.js';
import { maskEntry, parseSecretPart, restoreMasked, sealEntry, unsealEntry, type SecretPart } from './entry-secrets.js';
import { isUniqueViolation } from './open-database.js';
import { newId } from './new-id.js';
import { parseStoredJson, requireUser, timestamp, type RegistryContext } from './registry-context.js';
import type { AddServerOptions, RegisteredServer, RegistryUser, ServerViewer, UserRef, UserServerConfig } from './registry-types.js';
import { ServerEntryCheck, type CheckedEntry } from './server-entry-check.js';
import { secretParameterNames } from './server-template.js';
import type { LoadedTemplate, TemplateStore } from './template-store.js';
import { effectivePolicy, policyViolationError, type TenantPolicy } from './tenant-policy.js';

const storedEntrySchema = z.record(z.string(), z.unknown());

type ServerRow = RegistryDatabase['servers'];

export type { AddServerOptions, ServerViewer, UserServerConfig };

/** The servers of a registry. */
export class ServerStore {
  readonly #context: RegistryContext;
  readonly #templates: TemplateStore;
  readonly #entries: ServerEntryCheck;

  constructor(context: RegistryContext, templates: TemplateStore) {
    this.#context = context;
    this.#templates = templates;
    this.#entries = new ServerEntryCheck(context, templates);
  }

  /**
   * Registers a server for `owner` (null: a shared server, visible to everyone, defined by an admin).
   * A tenant's entry must pass the policy; throws POLICY_VIOLATION naming each broken rule,
   * CONFIG_INVALID for an entry the config loader rejects, ALREADY_EXISTS for a taken name.
   */
  async add(owner: UserRef | null, name: string, entry: Readonly<Record<string, unknown>>, options: AddServerOptions = {}): Promise<RegisteredServer> {
    assertEntryDepth(entry, `servers.${name}`);
    const user = owner === null ? null : await requireUser(this.#context, owner);
    const checked = await this.#entries.check(user, name, entry);
    const id = newId();
    const now = timestamp();
    const stored = this.#serialize(id, checked);
    const row: ServerRow = {
      id,
      owner_id: user?.id ?? null,
      name,
      kind: checked.kind,
      template_id: checked.template?.id ?? null,
      entry: stored.entry,
      secrets: stored.secrets,
      enabled: (options.enabled ?? checked.enabled ?? true) ? 1 : 0,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.#context.db.transaction().execute(async (trx) => {
        if (user !== null && checked.policy !== undefined) await this.#checkServerLimit(trx, user, checked.policy);
        if (user !== null) {
          const shared = await trx.selectFrom('servers').select('id').where('owner_id', 'is', null).where('name', '=', name).executeTakeFirst();
          if (shared !== undefined) {
            throw new SwitchboardError(ErrorCode.AlreadyExists, `"${name}" is the name of a shared server`, { hint: 'pick another name' });
          }
        }
        await trx.insertInto('servers').values(row).execute();
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new SwitchboardError(ErrorCode.AlreadyExists, `server "${name}" already exists ${user === null ? 'among the shared servers' : `for user "${user.name}"`}`, {
          cause: error,
          hint: 'remove it first, or pick another name',
        });
      }
      throw error;
    }
    await this.#context.notify({ kind: 'server', action: 'added', userId: row.owner_id, name });
    return this.#toPublic(row, user?.name ?? null, checked.template?.name, 'operator');
  }

  /**
   * Replaces a server's entry (checked as on `add`). Secret values given back exactly as they were
   * shown (masked) keep their stored value, so an edited listing can be saved as it is.
   */
  async update(owner: UserRef | null, name: string, entry: Readonly<Record<string, unknown>>): Promise<RegisteredServer> {
    assertEntryDepth(entry, `servers.${name}`);
    const user = owner === null ? null : await requireUser(this.#context, owner);
    const row = await this.#row(user, name);
    const previous = this.#fullEntry(row);
    const checked = await this.#entries.check(user, name, restoreMasked(entry, previous));
    const stored = this.#serialize(row.id, checked);
    const changes = {
      kind: checked.kind,
      template_id: checked.template?.id ?? null,
      entry: stored.entry,
      secrets: stored.secrets,
      ...(checked.enabled === undefined ? {} : { enabled: checked.enabled ? 1 : 0 }),
      updated_at: timestamp(),
    };
    await this.#context.db.updateTable('servers').set(changes).where('id', '=', row.id).execute();
    await this.#context.notify({ kind: 'server', action: 'updated', userId: row.owner_id, name });
    return this.#toPublic({ ...row, ...changes }, user?.name ?? null, checked.template?.name, 'operator');
  }

  /** Enables or disables a server. */
  async setEnabled(owner: UserRef | null, name: string, enabled: boolean): Promise<RegisteredServer> {
    const user = owner === null ? null : await requireUser(this.#context, owner);
    const row = await this.#row(user, name);
    const changes = { enabled: enabled ? 1 : 0, updated_at: timestamp() };
    await this.#context.db.updateTable('servers').set(changes).where('id', '=', row.id).execute();
    await this.#context.notify({ kind: 'server', action: 'updated', userId: row.owner_id, name });
    return this.#toPublic({ ...row, ...changes }, user?.name ?? null, await this.#templateName(row), 'operator');
  }

  /** Removes a server; throws SERVER_NOT_FOUND when `owner` has none by that name. */
  async remove(owner: UserRef | null, name: string): Promise<void> {
    const user = owner === null ? null : await requireUser(this.#context, owner);
    const row = await this.#row(user, name);
    await this.#context.db.deleteFrom('servers').where('id', '=', row.id).execute();
    await this.#context.notify({ kind: 'server', action: 'removed', userId: row.owner_id, name });
  }

  /** One of `owner`'s servers (secrets masked); throws SERVER_NOT_FOUND. */
  async get(owner: UserRef | null, name: string): Promise<RegisteredServer> {
    const user = owner === null ? null : await requireUser(this.#context, owner);
    const row = await this.#row(user, name);
    return this.#toPublic(row, user?.name ?? null, await this.#templateName(row), 'operator');
  }

  /**
   * `owner`'s servers and the shared ones (null: the shared ones only), by name, secrets masked.
   * For viewer `owner`, shared servers show their name and kind but not how they are reached.
   */
  async list(owner: UserRef | null, options: { includeShared?: boolean; viewer?: ServerViewer } = {}): Promise<RegisteredServer[]> {
    const user = owner === null ? null : await requireUser(this.#context, owner);
    const includeShared = options.includeShared ?? true;
    let query = this.#context.db.selectFrom('servers').leftJoin('users', 'users.id', 'servers.owner_id').selectAll('servers').select('users.name as owner_name');
    if (user === null) query = query.where('servers.owner_id', 'is', null);
    else if (includeShared) query = query.where((where) => where.or([where('servers.owner_id', '=', user.id), where('servers.owner_id', 'is', null)]));
    else query = query.where('servers.owner_id', '=', user.id);
    const rows = await query.orderBy('servers.name').execute();
    const templates = await this.#templateNames();
    const viewer = options.viewer === 'owner' && user?.isAdmin !== true ? 'owner' : 'operator';
    return rows.map((row) => this.#toPublic(row, row.owner_name ?? null, row.template_id === null ? undefined : templates.get(row.template_id), viewer));
  }

  /** Every server of every user, for the operator. */
  async listAll(): Promise<RegisteredServer[]> {
    const rows = await this.#context.db
      .selectFrom('servers')
      .leftJoin('users', 'users.id', 'servers.owner_id')
      .selectAll('servers')
      .select('users.name as owner_name')
      .execute();
    // Shared servers (no owner) first, then by owner and name — sorted here: SQLite and PostgreSQL
    // order NULLs differently.
    rows.sort((a, b) => (a.owner_name ?? '').localeCompare(b.owner_name ?? '') || a.name.localeCompare(b.name));
    const templates = await this.#templateNames();
    return rows.map((row) => this.#toPublic(row, row.owner_name ?? null, row.template_id === null ? undefined : templates.get(row.template_id), 'operator'));
  }

  /**
   * The enabled servers of a user (their own, and the shared ones), decrypted and normalized, for the
   * client pool. Entries that no longer pass (a template removed, a policy tightened) are skipped
   * with a warning rather than failing the user's whole client.
   */
  async configFor(owner: UserRef): Promise<UserServerConfig> {
    const user = await requireUser(this.#context, owner);
    const rows = await this.#context.db
      .selectFrom('servers')
      .selectAll()
      .where((where) => where.or([where('owner_id', '=', user.id), where('owner_id', 'is', null)]))
      .where('enabled', '=', 1)
      .orderBy('name')
      .execute();
    const policy = user.isAdmin ? undefined : effectivePolicy(await this.#context.globalPolicy(), user.policy);
    const templates = rows.some((row) => row.template_id !== null) ? await this.#templates.loadAll() : new Map<string, LoadedTemplate>();
    const specs: ServerSpec[] = [];
    const tenantServers = new Set<string>();
    const templateServers = new Set<string>();
    const warnings: string[] = [];
    const names = new Set<string>();
    // The user's own servers first: a shared server with the same name is shadowed, not duplicated.
    const ordered = [...rows.filter((row) => row.owner_id !== null), ...rows.filter((row) => row.owner_id === null)];
    for (const row of ordered) {
      if (names.has(row.name)) {
        warnings.push(`shared server "${row.name}" is hidden by the user's own server of that name`);
        continue;
      }
      const isTenant = row.owner_id !== null && policy !== undefined;
      try {
        const spec = this.#entries.specOf(row.name, row.template_id, this.#fullEntry(row), templates, isTenant ? policy : undefined);
        specs.push(spec);
        names.add(row.name);
        if (isTenant) tenantServers.add(row.name);
        if (row.template_id !== null) templateServers.add(row.name);
      } catch (error) {
        const message = error instanceof Error ? error.message.split('\n').join(' ') : String(error);
        warnings.push(`server "${row.name}" skipped: ${message}`);
        this.#context.logger.warn('registry entry skipped', { user: user.name, server: row.name, error: message });
      }
    }
    return { user, config: { servers: specs, naming: 'on-conflict', onServerError: 'skip' }, tenantServers, templateServers, policy, warnings };
  }

  async #checkServerLimit(trx: Kysely<RegistryDatabase>, user: RegistryUser, policy: TenantPolicy): Promise<void> {
    // A no-op write first: it locks the user's row on PostgreSQL and takes SQLite's write lock, so two
    // concurrent adds (in this process or another) cannot both pass the count below.
    await trx.updateTable('users').set({ updated_at: user.updatedAt }).where('id', '=', user.id).execute();
    const result = await trx.selectFrom('servers').select(({ fn }) => fn.countAll<number>().as('count')).where('owner_id', '=', user.id).executeTakeFirst();
    const count = Number(result?.count ?? 0);
    if (count >= policy.maxServers) {
      throw policyViolationError(
        [{ rule: 'server-limit', message: `user "${user.name}" has ${count} of ${policy.maxServers} servers`, hint: 'remove one, or an admin can raise maxServers for this user' }],
        `server for user "${user.name}"`,
      );
    }
  }

  async #row(user: RegistryUser | null, name: string): Promise<ServerRow> {
    const query = this.#context.db.selectFrom('servers').selectAll().where('name', '=', name);
    const row = await (user === null ? query.where('owner_id', 'is', null) : query.where('owner_id', '=', user.id)).executeTakeFirst();
    if (row === undefined) {
      throw new SwitchboardError(ErrorCode.ServerNotFound, `${user === null ? 'there is no shared server' : `user "${user.name}" has no server`} named "${name}"`, {
        server: name,
      });
    }
    return row;
  }

  async #templateName(row: ServerRow): Promise<string | undefined> {
    if (row.template_id === null) return undefined;
    const template = await this.#context.db.selectFrom('server_templates').select('name').where('id', '=', row.template_id).executeTakeFirst();
    return template?.name;
  }

  async #templateNames(): Promise<Map<string, string>> {
    const rows = await this.#context.db.selectFrom('server_templates').select(['id', 'name']).execute();
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  #serialize(id: string, checked: CheckedEntry): { entry: string; secrets: string | null } {
    const secretParameters = checked.template === undefined ? new Set<string>() : secretParameterNames(checked.template.definition);
    const { publicPart, secretPart } = sealEntry(checked.entry, secretParameters);
    const hasSecrets = Object.keys(secretPart).length > 0;
    return { entry: JSON.stringify(publicPart), secrets: hasSecrets ? this.#context.box.encrypt(JSON.stringify(secretPart), `server:${id}`) : null };
  }

  /** The stored entry with its secrets merged back. Never leaves the registry. */
  #fullEntry(row: ServerRow): Record<string, unknown> {
    const publicPart = storedEntrySchema.parse(parseStoredJson(row.entry, `server ${row.name}`));
    return row.secrets === null ? publicPart : unsealEntry(publicPart, this.#secretPart(row));
  }

  #toPublic(row: ServerRow, owner: string | null, template: string | undefined, viewer: ServerViewer): RegisteredServer {
    const shared = row.owner_id === null;
    let entry: Record<string, unknown>;
    if (shared && viewer === 'owner') {
      // A tenant learns that a shared server exists and what it is for, not how it is reached.
      const description = (parseStoredJson(row.entry, `server ${row.name}`) as { description?: unknown }).description;
      entry = typeof description === 'string' ? { description } : {};
    } else {
      const full = this.#fullEntry(row);
      const hidden = this.#secretPart(row).parameters;
      const secretParameters = row.template_id === null || typeof hidden !== 'object' || hidden === null ? new Set<string>() : new Set(Object.keys(hidden));
      entry = maskEntry(full, secretParameters);
    }
    return {
      id: row.id,
      name: row.name,
      owner,
      shared,
      kind: row.kind === 'stdio' || row.kind === 'template' ? row.kind : 'http',
      ...(template === undefined ? {} : { template }),
      enabled: row.enabled === 1,
      entry,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  #secretPart(row: ServerRow): SecretPart {
    if (row.secrets === null) return {};
    return parseSecretPart(parseStoredJson(this.#context.box.decrypt(row.secrets, `server:${row.id}`), `server ${row.name} secrets`), `server "${row.name}"`);
  }

  /** Re-encrypts every server's secrets with the current key (inside a rotation's transaction). */
  static async reencrypt(trx: Kysely<RegistryDatabase>, decrypt: (text: string, context: string) => string, encrypt: (text: string, context: string) => string): Promise<number> {
    const rows = await trx.selectFrom('servers').select(['id', 'secrets']).where('secrets', 'is not', null).execute();
    for (const row of rows) {
      if (row.secrets === null) continue;
      const context = `server:${row.id}`;
      await trx.updateTable('servers').set({ secrets: encrypt(decrypt(row.secrets, context), context) }).where('id', '=', row.id).execute();
    }
    return rows.length;
  }
}

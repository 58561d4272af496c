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
import { normalizeServerEntry } from '../config/normalize-config.js';
import type { ServerSpec, SwitchboardConfig } from '../config/server-spec.js';
import { ConfigError, ErrorCode, SwitchboardError, type ConfigIssue } from '../errors.js';
import type { RegistryDatabase } from './database-schema.js';
import { hostFileIssues, processFieldViolations, STDIO_HINT } from './check-local-paths.js';
import { maskEntry, parseSecretPart, restoreMasked, sealEntry, unsealEntry, type SecretPart } from './entry-secrets.js';
import { isUniqueViolation } from './open-database.js';
import { newId } from './new-id.js';
import { RECORD_NAME, checkName, parseStoredJson, requireUser, timestamp, type RegistryContext } from './registry-context.js';
import type { RegisteredServer, RegisteredServerKind, RegistryUser, UserRef } from './registry-types.js';
import { renderTemplate } from './render-template.js';
import { checkParameters, isTemplateInstance, secretParameterNames, templateInstanceSchema, type TemplateInstance } from './server-template.js';
import type { LoadedTemplate, TemplateStore } from './template-store.js';
import { checkHostEnv, checkRemoteUrl, effectivePolicy, policyViolationError, type PolicyViolation, type TenantPolicy } from './tenant-policy.js';

/** Options of {@link ServerStore.add}. */
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

const storedEntrySchema = z.record(z.string(), z.unknown());

interface CheckedEntry {
  kind: RegisteredServerKind;
  template: LoadedTemplate | undefined;
  /** The entry without `enabled`/`disabled`. */
  entry: Record<string, unknown>;
  enabled: boolean | undefined;
  policy: TenantPolicy | undefined;
}

type ServerRow = RegistryDatabase['servers'];

/** The servers of a registry. */
export class ServerStore {
  readonly #context: RegistryContext;
  readonly #templates: TemplateStore;

  constructor(context: RegistryContext, templates: TemplateStore) {
    this.#context = context;
    this.#templates = templates;
  }

  /**
   * Registers a server for `owner` (null: a shared server, visible to everyone, defined by an admin).
   * A tenant's entry must pass the policy; throws POLICY_VIOLATION naming each broken rule,
   * CONFIG_INVALID for an entry the config loader rejects, ALREADY_EXISTS for a taken name.
   */
  async add(owner: UserRef | null, name: string, entry: Readonly<Record<string, unknown>>, options: AddServerOptions = {}): Promise<RegisteredServer> {
    assertEntryDepth(entry, `servers.${name}`);
    const user = owner === null ? null : await requireUser(this.#context, owner);
    const checked = await this.#check(user, name, entry);
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
    const checked = await this.#check(user, name, restoreMasked(entry, previous));
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
        const spec = this.#specOf(row, templates, isTenant ? policy : undefined);
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

  #specOf(row: ServerRow, templates: Map<string, LoadedTemplate>, policy: TenantPolicy | undefined): ServerSpec {
    const full = this.#fullEntry(row);
    if (row.template_id !== null) {
      const template = templates.get(row.template_id);
      if (template === undefined) throw new SwitchboardError(ErrorCode.NotFound, 'its template no longer exists');
      const instance = templateInstanceSchema.parse(full);
      const { values, violations } = checkParameters(template.definition, instance.parameters, template.name);
      if (violations.length > 0) throw policyViolationError(violations, `server "${row.name}"`);
      // Rendered text is final: the admin's `${VAR}` were expanded, the tenant's values never are.
      return { ...this.#normalize(row.name, this.#renderInstance(row.name, template, values, instance, ['description']), {}, false), enabled: true };
    }
    if (policy !== undefined) {
      const fileIssues = hostFileIssues(full, `servers.${row.name}`);
      if (fileIssues.length > 0) throw new ConfigError(fileIssues, [], `server "${row.name}"`);
      const violations = staticViolations(full, policy, row.name);
      if (violations.length > 0) throw policyViolationError(violations, `server "${row.name}"`);
    }
    const spec = this.#normalize(row.name, full, policy === undefined || policy.allowHostEnv ? this.#context.env : {});
    if (policy !== undefined && row.template_id === null && spec.type === 'stdio' && !policy.allowStdio) {
      throw policyViolationError([stdioViolation()], `server "${row.name}"`);
    }
    return { ...spec, enabled: true };
  }

  async #check(user: RegistryUser | null, name: string, rawEntry: Readonly<Record<string, unknown>>): Promise<CheckedEntry> {
    checkName(name, RECORD_NAME, 'server');
    if (typeof rawEntry !== 'object' || rawEntry === null || Array.isArray(rawEntry)) {
      throw new SwitchboardError(ErrorCode.InvalidArgument, `the entry of server "${name}" must be an object`, { hint: 'e.g. { "url": "https://…" }' });
    }
    const { enabled: rawEnabled, disabled, ...entry } = rawEntry as Record<string, unknown>;
    const enabled = typeof rawEnabled === 'boolean' ? rawEnabled : typeof disabled === 'boolean' ? !disabled : undefined;
    const isTenant = user !== null && !user.isAdmin;
    const policy = isTenant ? effectivePolicy(await this.#context.globalPolicy(), user.policy) : undefined;
    const subject = `server "${name}"${user === null ? '' : ` for user "${user.name}"`}`;

    if (isTemplateInstance(entry)) {
      const parsed = templateInstanceSchema.safeParse(entry);
      if (!parsed.success) {
        const problems = parsed.error.issues.map((issue) => `${[name, ...issue.path.map(String)].join('.')}: ${issue.message}`);
        const violations: PolicyViolation[] = problems.map((message) => ({ rule: 'template', message, hint: 'a template instance takes `template`, `parameters` and tool filters only' }));
        throw isTenant ? policyViolationError(violations, subject) : new SwitchboardError(ErrorCode.InvalidArgument, `${subject}: ${problems.join('; ')}`);
      }
      const template = await this.#templates.load({ name: parsed.data.template });
      if (template === undefined) {
        throw new SwitchboardError(ErrorCode.NotFound, `${subject}: there is no template "${parsed.data.template}"`, { hint: 'list templates with `switchboard templates list`' });
      }
      const { values, violations } = checkParameters(template.definition, parsed.data.parameters, template.name);
      if (violations.length > 0) {
        throw isTenant ? policyViolationError(violations, subject) : new SwitchboardError(ErrorCode.InvalidArgument, `${subject}: ${violations.map((violation) => violation.message).join('; ')}`);
      }
      this.#normalize(name, this.#renderInstance(name, template, values, parsed.data), {}, false);
      return { kind: 'template', template, entry: { ...parsed.data }, enabled, policy };
    }

    if (policy === undefined) {
      const spec = this.#normalize(name, entry, this.#context.env);
      return { kind: spec.type, template: undefined, entry, enabled, policy };
    }
    // Before anything is normalized (let alone read): a tenant names no file of the gateway host.
    const fileIssues = hostFileIssues(entry, `servers.${name}`);
    if (fileIssues.length > 0) throw new ConfigError(fileIssues, [], subject);
    const violations = staticViolations(entry, policy, name);
    // Normalizing with an empty environment: nothing of the gateway's can leak into a tenant's entry.
    let spec: ServerSpec | undefined;
    try {
      spec = this.#normalize(name, entry, policy.allowHostEnv ? this.#context.env : {});
    } catch (error) {
      // A policy refusal explains more than the config error it causes (an unset ${VAR}, a file: URL).
      if (violations.length > 0) throw policyViolationError(violations, subject);
      throw error;
    }
    if (spec.type === 'stdio' && !policy.allowStdio && !violations.some((violation) => violation.rule === 'stdio')) violations.push(stdioViolation());
    if (spec.type === 'http') violations.push(...(await checkRemoteUrl(new URL(spec.url), policy, this.#context.resolveHost)));
    if (violations.length > 0) throw policyViolationError(violations, subject);
    return { kind: spec.type, template: undefined, entry, enabled, policy };
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

  /** The entry of a template instance, final text (see `registry/render-template`); throws CONFIG_INVALID for an unset admin `${VAR}`. */
  #renderInstance(name: string, template: LoadedTemplate, values: Record<string, string>, instance: TemplateInstance, extra: ReadonlyArray<keyof TemplateInstance> = []): Record<string, unknown> {
    const overrides = pick(instance, ['timeout', 'callTimeout', 'prefix', 'include', 'exclude', ...extra]);
    const { entry, issues } = renderTemplate({ template: template.definition, values, templateEnv: template.env, hostEnv: this.#context.env, overrides, path: `servers.${name}` });
    if (issues.length > 0) throw new ConfigError(issues, [], `server "${name}"`);
    return entry;
  }

  #normalize(name: string, entry: Record<string, unknown>, env: Readonly<Record<string, string | undefined>>, expand = true): ServerSpec {
    const errors: ConfigIssue[] = [];
    const warnings: ConfigIssue[] = [];
    const spec = normalizeServerEntry(name, entry, { path: `servers.${name}`, baseDir: this.#context.baseDir, env, errors, warnings, expand });
    // A config file may carry unknown keys (warned about); a registry entry is stored, so it may not.
    const unknownKeys = warnings.filter((warning) => warning.message === 'unknown key, ignored').map((warning) => ({ ...warning, message: 'unknown key' }));
    if (spec === undefined || errors.length > 0 || unknownKeys.length > 0) throw new ConfigError([...errors, ...unknownKeys], warnings, `server "${name}"`);
    return spec;
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

function stdioViolation(): PolicyViolation {
  return {
    rule: 'stdio',
    message: 'tenants cannot register server processes (stdio)',
    hint: STDIO_HINT,
  };
}

/** The policy rules that need no DNS: host environment, fields naming host paths, URL schemes. */
function staticViolations(entry: Readonly<Record<string, unknown>>, policy: TenantPolicy, name: string): PolicyViolation[] {
  const violations: PolicyViolation[] = [];
  if (!policy.allowHostEnv) violations.push(...checkHostEnv(entry, name));
  violations.push(...processFieldViolations(entry, name, policy));
  for (const key of ['url', 'path'] as const) {
    const value = entry[key];
    if (typeof value !== 'string') continue;
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value.trim())?.[1]?.toLowerCase();
    // A one-letter "scheme" is a Windows drive (C:\…), which the stdio rule covers.
    if (scheme !== undefined && scheme.length > 1 && scheme !== 'http' && scheme !== 'https') {
      violations.push({ rule: 'url-scheme', message: `${name}.${key} uses the ${scheme}: scheme, which is not allowed`, hint: 'use an https:// URL' });
    }
  }
  return violations;
}

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const result: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) result[key] = source[key];
  return result;
}

/**
 * @module registry/user-store
 * Users: add, list, remove, grant admin, set per-user policy exceptions.
 */

import { ErrorCode, SwitchboardError } from '../errors.js';
import { isUniqueViolation } from './open-database.js';
import { newId } from './new-id.js';
import { USER_NAME, checkName, requireUser, timestamp, toUser, type RegistryContext } from './registry-context.js';
import type { RegistryUser, UserRef } from './registry-types.js';
import { parsePolicy, type TenantPolicy } from './tenant-policy.js';
import type { ToolSearchOption } from '../client/search/tool-search-mode.js';
import { toStoredToolSearch } from './stored-tool-search.js';

/** Options of {@link UserStore.add}. */
export interface AddUserOptions {
  /** @default false */
  isAdmin?: boolean;
  /** Exceptions to the global policy for this user. */
  policy?: Partial<TenantPolicy>;
}

/** The users of a registry. */
export class UserStore {
  readonly #context: RegistryContext;

  constructor(context: RegistryContext) {
    this.#context = context;
  }

  /** Adds a user; throws ALREADY_EXISTS when the name is taken. */
  async add(name: string, options: AddUserOptions = {}): Promise<RegistryUser> {
    checkName(name, USER_NAME, 'user');
    const policy = options.policy === undefined ? null : JSON.stringify(parsePolicy(options.policy));
    const now = timestamp();
    const row = { id: newId(), name, is_admin: options.isAdmin === true ? 1 : 0, policy, created_at: now, updated_at: now };
    try {
      await this.#context.db.insertInto('users').values(row).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new SwitchboardError(ErrorCode.AlreadyExists, `user "${name}" already exists`, { cause: error });
      throw error;
    }
    await this.#context.notify({ kind: 'user', action: 'added', userId: row.id, name });
    return toUser(row);
  }

  /** Every user, by name. */
  async list(): Promise<RegistryUser[]> {
    const rows = await this.#context.db.selectFrom('users').selectAll().orderBy('name').execute();
    return rows.map(toUser);
  }

  /** One user; throws NOT_FOUND. */
  get(ref: UserRef): Promise<RegistryUser> {
    return requireUser(this.#context, ref);
  }

  /** One user, or undefined. */
  async find(ref: UserRef): Promise<RegistryUser | undefined> {
    try {
      return await requireUser(this.#context, ref);
    } catch (error) {
      if (error instanceof SwitchboardError && error.code === ErrorCode.NotFound) return undefined;
      throw error;
    }
  }

  /** Removes a user with their servers, tokens and secrets. */
  async remove(ref: UserRef): Promise<void> {
    const user = await requireUser(this.#context, ref);
    await this.#context.db.deleteFrom('users').where('id', '=', user.id).execute();
    await this.#context.notify({ kind: 'user', action: 'removed', userId: user.id, name: user.name });
  }

  /**
   * Sets how this user's gateway endpoint offers tools: `'on'`, `'auto'` (with thresholds), `'off'`, or
   * undefined for the default. Checked here: a bad value is an InvalidArgument naming the field.
   */
  async setToolSearch(ref: UserRef, option: ToolSearchOption | undefined): Promise<RegistryUser> {
    const user = await requireUser(this.#context, ref);
    const stored = option === undefined ? null : JSON.stringify(toStoredToolSearch(option, `users.${user.name}.toolSearch`));
    await this.#context.db.updateTable('users').set({ tool_search: stored, updated_at: timestamp() }).where('id', '=', user.id).execute();
    await this.#context.notify({ kind: 'user', action: 'updated', userId: user.id, name: user.name });
    return requireUser(this.#context, { id: user.id });
  }

  /** Grants or withdraws the admin role. */
  async setAdmin(ref: UserRef, isAdmin: boolean): Promise<RegistryUser> {
    const user = await requireUser(this.#context, ref);
    await this.#context.db.updateTable('users').set({ is_admin: isAdmin ? 1 : 0, updated_at: timestamp() }).where('id', '=', user.id).execute();
    await this.#context.notify({ kind: 'user', action: 'updated', userId: user.id, name: user.name });
    return requireUser(this.#context, { id: user.id });
  }

  /** Replaces this user's exceptions to the global policy (undefined removes them). */
  async setPolicy(ref: UserRef, policy: Partial<TenantPolicy> | undefined): Promise<RegistryUser> {
    const user = await requireUser(this.#context, ref);
    const stored = policy === undefined ? null : JSON.stringify(parsePolicy(policy, `users.${user.name}.policy`));
    await this.#context.db.updateTable('users').set({ policy: stored, updated_at: timestamp() }).where('id', '=', user.id).execute();
    await this.#context.notify({ kind: 'policy', action: 'updated', userId: user.id, name: user.name });
    return requireUser(this.#context, { id: user.id });
  }
}

/**
 * @module registry/group-store
 * Groups of users: add, list, remove, add and remove members. Tool rules, rate limits and endpoint
 * grants name groups; a change here reaches the gateway as an `access` change.
 */

import { ErrorCode, SwitchboardError } from '../errors.js';
import { isUniqueViolation } from './open-database.js';
import { newId } from './new-id.js';
import { RECORD_NAME, checkName, requireUser, timestamp, type RegistryContext } from './registry-context.js';
import type { UserRef } from './registry-types.js';

/** A group and its members' names. */
export interface RegistryGroup {
  id: string;
  name: string;
  description?: string;
  members: string[];
  createdAt: string;
  updatedAt: string;
}

/** The groups of a registry. Only admins change them. */
export class GroupStore {
  readonly #context: RegistryContext;

  constructor(context: RegistryContext) {
    this.#context = context;
  }

  /** Adds a group; ALREADY_EXISTS when the name is taken. */
  async add(name: string, options: { description?: string } = {}): Promise<RegistryGroup> {
    checkName(name, RECORD_NAME, 'group');
    const now = timestamp();
    const row = { id: newId(), name, description: options.description ?? null, created_at: now, updated_at: now };
    try {
      await this.#context.db.insertInto('user_groups').values(row).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new SwitchboardError(ErrorCode.AlreadyExists, `group "${name}" already exists`, { cause: error });
      throw error;
    }
    await this.#changed('added', name);
    return this.get(name);
  }

  /** Every group with its members, by name. */
  async list(): Promise<RegistryGroup[]> {
    const groups = await this.#context.db.selectFrom('user_groups').selectAll().orderBy('name').execute();
    const members = await this.#context.db
      .selectFrom('group_members')
      .innerJoin('users', 'users.id', 'group_members.user_id')
      .select(['group_members.group_id as groupId', 'users.name as userName'])
      .orderBy('users.name')
      .execute();
    return groups.map((group) => ({
      id: group.id,
      name: group.name,
      ...(group.description === null ? {} : { description: group.description }),
      members: members.filter((member) => member.groupId === group.id).map((member) => member.userName),
      createdAt: group.created_at,
      updatedAt: group.updated_at,
    }));
  }

  /** One group; NOT_FOUND. */
  async get(name: string): Promise<RegistryGroup> {
    const found = (await this.list()).find((group) => group.name === name);
    if (found === undefined) throw notFound(name);
    return found;
  }

  /** Removes a group (its memberships go with it; rules naming it stop applying). */
  async remove(name: string): Promise<void> {
    const id = await this.#id(name);
    await this.#context.db.deleteFrom('group_members').where('group_id', '=', id).execute();
    await this.#context.db.deleteFrom('user_groups').where('id', '=', id).execute();
    await this.#changed('removed', name);
  }

  /** Adds `user` to the group (idempotent). */
  async addMember(name: string, user: UserRef): Promise<RegistryGroup> {
    const id = await this.#id(name);
    const member = await requireUser(this.#context, user);
    await this.#context.db
      .insertInto('group_members')
      .values({ group_id: id, user_id: member.id, created_at: timestamp() })
      .onConflict((conflict) => conflict.columns(['group_id', 'user_id']).doNothing())
      .execute();
    await this.#changed('updated', name);
    return this.get(name);
  }

  /** Removes `user` from the group (idempotent). */
  async removeMember(name: string, user: UserRef): Promise<RegistryGroup> {
    const id = await this.#id(name);
    const member = await requireUser(this.#context, user);
    await this.#context.db.deleteFrom('group_members').where('group_id', '=', id).where('user_id', '=', member.id).execute();
    await this.#changed('updated', name);
    return this.get(name);
  }

  /** Group names by user id, for the gateway's access snapshot. */
  async memberships(): Promise<Map<string, string[]>> {
    const rows = await this.#context.db
      .selectFrom('group_members')
      .innerJoin('user_groups', 'user_groups.id', 'group_members.group_id')
      .select(['group_members.user_id as userId', 'user_groups.name as groupName'])
      .execute();
    const byUser = new Map<string, string[]>();
    for (const row of rows) byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), row.groupName]);
    return byUser;
  }

  async #id(name: string): Promise<string> {
    const row = await this.#context.db.selectFrom('user_groups').select('id').where('name', '=', name).executeTakeFirst();
    if (row === undefined) throw notFound(name);
    return row.id;
  }

  async #changed(action: 'added' | 'updated' | 'removed', name: string): Promise<void> {
    await this.#context.notify({ kind: 'access', action, userId: undefined, name });
  }
}

function notFound(name: string): SwitchboardError {
  return new SwitchboardError(ErrorCode.NotFound, `there is no group "${name}"`, { hint: 'list groups with `switchboard groups list`' });
}

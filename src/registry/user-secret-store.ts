/**
 * @module registry/user-secret-store
 * Per-user secrets that are not part of a server entry — OAuth tokens for upstream servers, for
 * instance — encrypted and bound to their row like every other secret.
 */

import { ErrorCode, SwitchboardError } from '../errors.js';
import { newId } from './new-id.js';
import { requireUser, timestamp, type RegistryContext } from './registry-context.js';
import type { UserRef } from './registry-types.js';

/** A user's secrets, by kind (e.g. `oauth`) and name (e.g. a server). */
export class UserSecretStore {
  readonly #context: RegistryContext;

  constructor(context: RegistryContext) {
    this.#context = context;
  }

  /** Stores (or replaces) a secret. */
  async set(user: UserRef, kind: string, name: string, value: string): Promise<void> {
    const owner = await requireUser(this.#context, user);
    checkKey(kind, name);
    const now = timestamp();
    const existing = await this.#context.db
      .selectFrom('user_secrets')
      .select('id')
      .where('user_id', '=', owner.id)
      .where('kind', '=', kind)
      .where('name', '=', name)
      .executeTakeFirst();
    if (existing !== undefined) {
      const secret = this.#context.box.encrypt(value, `user-secret:${existing.id}`);
      await this.#context.db.updateTable('user_secrets').set({ secret, updated_at: now }).where('id', '=', existing.id).execute();
      return;
    }
    const id = newId();
    const secret = this.#context.box.encrypt(value, `user-secret:${id}`);
    await this.#context.db.insertInto('user_secrets').values({ id, user_id: owner.id, kind, name, secret, created_at: now, updated_at: now }).execute();
  }

  /** A secret in clear, or undefined. */
  async get(user: UserRef, kind: string, name: string): Promise<string | undefined> {
    const owner = await requireUser(this.#context, user);
    const row = await this.#context.db
      .selectFrom('user_secrets')
      .select(['id', 'secret'])
      .where('user_id', '=', owner.id)
      .where('kind', '=', kind)
      .where('name', '=', name)
      .executeTakeFirst();
    return row === undefined ? undefined : this.#context.box.decrypt(row.secret, `user-secret:${row.id}`);
  }

  /** Names of a user's secrets of one kind (never the values). */
  async names(user: UserRef, kind: string): Promise<string[]> {
    const owner = await requireUser(this.#context, user);
    const rows = await this.#context.db.selectFrom('user_secrets').select('name').where('user_id', '=', owner.id).where('kind', '=', kind).orderBy('name').execute();
    return rows.map((row) => row.name);
  }

  /** Deletes a secret; true when there was one. */
  async delete(user: UserRef, kind: string, name: string): Promise<boolean> {
    const owner = await requireUser(this.#context, user);
    const result = await this.#context.db.deleteFrom('user_secrets').where('user_id', '=', owner.id).where('kind', '=', kind).where('name', '=', name).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

function checkKey(kind: string, name: string): void {
  if (kind === '' || name === '' || kind.length > 64 || name.length > 256) {
    throw new SwitchboardError(ErrorCode.InvalidArgument, 'a user secret needs a kind (up to 64 characters) and a name (up to 256)');
  }
}

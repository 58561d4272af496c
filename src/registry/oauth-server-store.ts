/**
 * @module registry/oauth-server-store
 * Storage for the gateway's own OAuth authorization server (`oidc-provider`'s models: clients,
 * grants, authorization codes, access and refresh tokens, sessions, interactions), on SQLite or
 * PostgreSQL alike. A record is found by the SHA-256 of its id: codes and tokens are their own ids,
 * so the database holds no usable credential (the id is also taken out of the stored payload). The
 * server's signing and cookie keys are kept encrypted under the registry key.
 */

import { createHash } from 'node:crypto';
import { ErrorCode, SwitchboardError } from '../errors.js';
import { parseStoredJson, timestamp, type RegistryContext } from './registry-context.js';

/** One stored model payload (oidc-provider's shape: plain JSON). */
export type OAuthPayload = Record<string, unknown>;

/** A user's consent to a client, as the dashboard lists it. */
export interface OAuthGrantInfo {
  grantId: string;
  userId: string;
  clientId: string;
  /** The client's name from its metadata (not escaped: whoever renders it escapes it). */
  clientName?: string;
  /** Its first redirect URI's host. */
  redirectHost?: string;
  scopes: string[];
  createdAt: string;
  expiresAt?: string;
}

const KEY_ROW = 'oidc-keys';

/** The records and keys of the gateway's authorization server. */
export class OAuthServerStore {
  readonly #context: RegistryContext;

  constructor(context: RegistryContext) {
    this.#context = context;
  }

  /** Stores (or replaces) a record; `expiresInS` from now, none for a record that does not expire. */
  async upsert(model: string, id: string, payload: OAuthPayload, expiresInS: number | undefined): Promise<void> {
    const { jti: _id, ...rest } = payload;
    const now = new Date();
    const row = {
      model,
      id_hash: hashId(id),
      payload: JSON.stringify(rest),
      grant_id: stringOf(payload.grantId) ?? (model === 'Grant' ? id : null),
      uid_hash: typeof payload.uid === 'string' ? hashId(payload.uid) : null,
      account_id: stringOf(payload.accountId),
      client_id: stringOf(payload.clientId) ?? (model === 'Client' ? stringOf(payload.client_id) : null),
      created_at: timestamp(now),
      expires_at: expiresInS === undefined ? null : timestamp(new Date(now.getTime() + expiresInS * 1000)),
      consumed_at: null,
    };
    await this.#context.db
      .insertInto('oauth_records')
      .values(row)
      .onConflict((conflict) =>
        conflict.columns(['model', 'id_hash']).doUpdateSet({ payload: row.payload, grant_id: row.grant_id, uid_hash: row.uid_hash, account_id: row.account_id, client_id: row.client_id, expires_at: row.expires_at }),
      )
      .execute();
  }

  /**
   * Records `id` of `model` once, for `expiresInS`: true the first time, false when it is there already
   * (one insert that does nothing on a conflict, so two replicas cannot both see a first time).
   */
  async claimOnce(model: string, id: string, expiresInS: number): Promise<boolean> {
    const now = new Date();
    const inserted = await this.#context.db
      .insertInto('oauth_records')
      .values({ model, id_hash: hashId(id), payload: '{}', grant_id: null, uid_hash: null, account_id: null, client_id: null, created_at: timestamp(now), expires_at: timestamp(new Date(now.getTime() + expiresInS * 1000)), consumed_at: null })
      .onConflict((conflict) => conflict.columns(['model', 'id_hash']).doNothing())
      .returning('id_hash')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /** A record that has not expired, with `consumed` (epoch seconds) once consumed. */
  async find(model: string, id: string): Promise<OAuthPayload | undefined> {
    const row = await this.#context.db.selectFrom('oauth_records').selectAll().where('model', '=', model).where('id_hash', '=', hashId(id)).executeTakeFirst();
    return row === undefined ? undefined : payloadOf(row);
  }

  /** The record of `model` whose `uid` is `uid`, with its id (sessions are found by uid). */
  async findByUid(model: string, uid: string): Promise<OAuthPayload | undefined> {
    const row = await this.#context.db.selectFrom('oauth_records').selectAll().where('model', '=', model).where('uid_hash', '=', hashId(uid)).executeTakeFirst();
    return row === undefined ? undefined : payloadOf(row);
  }

  /** Marks a record consumed (a used code, a rotated refresh token); a second use is then detected. */
  async consume(model: string, id: string): Promise<void> {
    await this.#context.db.updateTable('oauth_records').set({ consumed_at: timestamp() }).where('model', '=', model).where('id_hash', '=', hashId(id)).execute();
  }

  /** Removes a record; a removed access token is announced, so remembered verifications of it are dropped. */
  async destroy(model: string, id: string): Promise<void> {
    const removed = await this.#context.db.deleteFrom('oauth_records').where('model', '=', model).where('id_hash', '=', hashId(id)).returning('account_id').executeTakeFirst();
    if (model === 'AccessToken' && removed !== undefined) await this.#announce(removed.account_id);
  }

  /** Removes every code and token of a grant (a replayed code, a reused refresh token), announced as for {@link destroy}. */
  async revokeByGrantId(grantId: string): Promise<void> {
    const removed = await this.#context.db.deleteFrom('oauth_records').where('grant_id', '=', grantId).where('model', '!=', 'Grant').returning('account_id').execute();
    if (removed.length > 0) await this.#announce(removed[0]?.account_id ?? null);
  }

  /** Tells every process (the gateways' token caches) that a user's tokens changed. */
  async #announce(userId: string | null): Promise<void> {
    await this.#context.notify({ kind: 'user', action: 'updated', userId: userId ?? '', name: '' });
  }

  /** Pushes a dynamically registered client's expiry out by `ttlMs` (it is being used). */
  async touchClient(clientId: string, ttlMs: number): Promise<void> {
    await this.#context.db
      .updateTable('oauth_records')
      .set({ expires_at: timestamp(new Date(Date.now() + ttlMs)) })
      .where('model', '=', 'Client')
      .where('id_hash', '=', hashId(clientId))
      .where('expires_at', 'is not', null)
      .execute();
  }

  /** The clients stored without an expiry (pre-registered by an administrator), their metadata. */
  async unexpiringClients(): Promise<OAuthPayload[]> {
    const rows = await this.#context.db.selectFrom('oauth_records').selectAll().where('model', '=', 'Client').where('expires_at', 'is', null).execute();
    return rows.map((row) => payloadOf(row)).filter((payload): payload is OAuthPayload => payload !== undefined);
  }

  /** Clients registered (dynamically) since `since`, for the hourly cap. */
  async countClientsSince(since: Date): Promise<number> {
    const row = await this.#context.db
      .selectFrom('oauth_records')
      .select((select) => select.fn.countAll<number | string>().as('count'))
      .where('model', '=', 'Client')
      .where('expires_at', 'is not', null)
      .where('created_at', '>=', timestamp(since))
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /** Consents (grants) that have not expired: of `userId`, or of everyone. */
  async grants(userId?: string): Promise<OAuthGrantInfo[]> {
    let query = this.#context.db.selectFrom('oauth_records').selectAll().where('model', '=', 'Grant');
    if (userId !== undefined) query = query.where('account_id', '=', userId);
    const rows = (await query.orderBy('created_at').execute()).filter((row) => row.expires_at === null || row.expires_at > timestamp());
    const infos: OAuthGrantInfo[] = [];
    for (const row of rows) {
      const payload = parseStoredJson(row.payload, 'an OAuth grant') as OAuthPayload;
      const clientId = stringOf(payload.clientId) ?? '';
      const client = clientId === '' ? undefined : await this.find('Client', clientId);
      const firstRedirect = Array.isArray(client?.redirect_uris) ? client.redirect_uris[0] : undefined;
      infos.push({
        grantId: hashless(row),
        userId: row.account_id ?? '',
        clientId,
        ...(typeof client?.client_name === 'string' ? { clientName: client.client_name } : {}),
        ...(typeof firstRedirect === 'string' && URL.canParse(firstRedirect) ? { redirectHost: new URL(firstRedirect).host } : {}),
        scopes: scopesOf(payload),
        createdAt: row.created_at,
        ...(row.expires_at === null ? {} : { expiresAt: row.expires_at }),
      });
    }
    return infos;
  }

  /**
   * Revokes a grant (the consent and every code and token made under it) of `userId` (any user's when
   * undefined: an admin); throws NOT_FOUND. Processes that remember verified tokens forget them.
   */
  async revokeGrant(grantId: string, userId: string | undefined): Promise<void> {
    const row = await this.#context.db.selectFrom('oauth_records').selectAll().where('model', '=', 'Grant').where('grant_id', '=', grantId).executeTakeFirst();
    if (row === undefined || (userId !== undefined && row.account_id !== userId)) {
      throw new SwitchboardError(ErrorCode.NotFound, `there is no authorized client ${grantId}`, { hint: 'list them with GET /api/oauth/clients' });
    }
    await this.#context.db.deleteFrom('oauth_records').where('grant_id', '=', grantId).execute();
    await this.#announce(row.account_id);
  }

  /** Removes expired records (housekeeping). */
  async deleteExpired(): Promise<number> {
    const result = await this.#context.db.deleteFrom('oauth_records').where('expires_at', '<=', timestamp()).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * The server's keys (JSON chosen by the caller), made by `create` on first use and kept encrypted.
   * Keys that no longer decrypt (the registry key was replaced) are made anew: signed ID tokens and
   * browser sessions of before are then void, and nothing else is lost.
   */
  async keys<T>(create: () => Promise<T>): Promise<T> {
    const context = `oauth_keys:${KEY_ROW}`;
    const read = async (): Promise<T | undefined> => {
      const row = await this.#context.db.selectFrom('oauth_keys').selectAll().where('id', '=', KEY_ROW).executeTakeFirst();
      if (row === undefined) return undefined;
      try {
        return JSON.parse(this.#context.box.decrypt(row.secret, context)) as T;
      } catch (error) {
        this.#context.logger.warn('the OAuth server keys no longer decrypt; making new ones', { error: error instanceof Error ? error.message : String(error) });
        await this.#context.db.deleteFrom('oauth_keys').where('id', '=', KEY_ROW).execute();
        return undefined;
      }
    };
    const existing = await read();
    if (existing !== undefined) return existing;
    const made = await create();
    const secret = this.#context.box.encrypt(JSON.stringify(made), context);
    // Replicas starting together: the first insert wins, everyone reads it back.
    await this.#context.db.insertInto('oauth_keys').values({ id: KEY_ROW, secret, created_at: timestamp() }).onConflict((conflict) => conflict.column('id').doNothing()).execute();
    return (await read()) ?? made;
  }
}

/** SHA-256 of an id, base64url. */
export function hashId(id: string): string {
  return createHash('sha256').update(id, 'utf8').digest('base64url');
}

function payloadOf(row: { payload: string; expires_at: string | null; consumed_at: string | null }): OAuthPayload | undefined {
  if (row.expires_at !== null && row.expires_at <= timestamp()) return undefined;
  const payload = parseStoredJson(row.payload, 'an OAuth record') as OAuthPayload;
  if (row.consumed_at !== null) payload.consumed = Math.floor(Date.parse(row.consumed_at) / 1000);
  return payload;
}

/** A grant's id is not secret (it names the consent); it is kept in `grant_id`. */
function hashless(row: { grant_id: string | null }): string {
  return row.grant_id ?? '';
}

function stringOf(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** The scopes a grant holds: OpenID scopes and those of each resource. */
function scopesOf(payload: OAuthPayload): string[] {
  const scopes = new Set<string>();
  const add = (value: unknown): void => {
    if (typeof value === 'string') for (const scope of value.split(' ')) if (scope !== '') scopes.add(scope);
  };
  add(payload.openid && typeof payload.openid === 'object' ? (payload.openid as { scope?: unknown }).scope : undefined);
  if (payload.resources !== null && typeof payload.resources === 'object') for (const value of Object.values(payload.resources)) add(value);
  return [...scopes].sort();
}

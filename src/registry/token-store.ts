/**
 * @module registry/token-store
 * API tokens for the gateway: `sb_<prefix>_<secret>`, 32 random bytes of secret. The store keeps the
 * prefix (to find the row) and a SHA-256 hash of the whole token — a slow hash buys nothing for 256
 * random bits — and compares hashes in constant time. The token is shown once, when created.
 */

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ErrorCode, SwitchboardError } from '../errors.js';
import type { RegistryDatabase } from './database-schema.js';
import { newId } from './new-id.js';
import { requireUser, timestamp, toUser, type RegistryContext } from './registry-context.js';
import type { ApiTokenInfo, CreatedApiToken, RegistryUser, UserRef } from './registry-types.js';

const TOKEN = /^sb_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;
/**
 * A token chosen by the operator (`SWITCHBOARD_TOKEN`): long enough to carry 192 bits as hex or
 * base64, of characters that survive a shell and a header. Its row is found by a prefix derived from
 * its hash (`h` + 11 hex digits), which cannot clash with a generated prefix (hex only, no `h`).
 */
const CHOSEN_TOKEN = /^[A-Za-z0-9_.~+/=-]{32,256}$/;
/** Shortest token {@link TokenStore.register} accepts. */
export const MIN_CHOSEN_TOKEN_LENGTH = 32;
/** `last_used_at` is written at most this often per token, so verifying stays a read. @default 60000 */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** Options of {@link TokenStore.create}. */
export interface CreateTokenOptions {
  /** A label, e.g. the program that uses it. */
  name?: string;
  /** Lifetime in ms. @default no expiry */
  expiresInMs?: number;
}

/** The API tokens of a registry. */
export class TokenStore {
  readonly #context: RegistryContext;

  constructor(context: RegistryContext) {
    this.#context = context;
  }

  /** Creates a token for `user`. The returned `token` is the only copy. */
  async create(user: UserRef, options: CreateTokenOptions = {}): Promise<CreatedApiToken> {
    const owner = await requireUser(this.#context, user);
    const prefix = randomBytes(6).toString('hex');
    const token = `sb_${prefix}_${randomBytes(32).toString('base64url')}`;
    const now = new Date();
    if (options.expiresInMs !== undefined && !(options.expiresInMs > 0)) {
      throw new SwitchboardError(ErrorCode.InvalidArgument, 'a token lifetime must be positive');
    }
    const expiresAt = options.expiresInMs === undefined ? null : timestamp(new Date(now.getTime() + options.expiresInMs));
    return { token, info: await this.#insert(owner.id, token, prefix, options.name, now, expiresAt) };
  }

  /**
   * Registers a token chosen elsewhere (a generated `sb_…` token, or any 32 to 256 characters of
   * letters, digits and `_ . ~ + / = -`) for `user`; only its hash is stored. Registering a token the
   * user already has changes nothing. Throws INVALID_ARGUMENT for a malformed token, ALREADY_EXISTS
   * when it belongs to another user.
   */
  async register(user: UserRef, token: string, options: Pick<CreateTokenOptions, 'name'> = {}): Promise<ApiTokenInfo> {
    const owner = await requireUser(this.#context, user);
    const prefix = prefixOf(token);
    if (prefix === undefined) {
      throw new SwitchboardError(ErrorCode.InvalidArgument, `a token must be ${MIN_CHOSEN_TOKEN_LENGTH} to 256 characters of letters, digits and _ . ~ + / = -`, {
        hint: 'generate one with `openssl rand -hex 32`',
      });
    }
    const existing = await this.#context.db.selectFrom('api_tokens').selectAll().where('prefix', '=', prefix).executeTakeFirst();
    if (existing !== undefined) {
      if (existing.user_id === owner.id && existing.token_hash === hashToken(token)) return toInfo(existing);
      throw new SwitchboardError(ErrorCode.AlreadyExists, 'this token (or one with the same prefix) belongs to another user or was revoked and replaced', {
        hint: 'choose another token',
      });
    }
    return this.#insert(owner.id, token, prefix, options.name, new Date(), null);
  }

  /** Stores a token's hash (never the token) and answers its public facts. */
  async #insert(userId: string, token: string, prefix: string, name: string | undefined, now: Date, expiresAt: string | null): Promise<ApiTokenInfo> {
    const row = { id: newId(), user_id: userId, name: name ?? null, prefix, token_hash: hashToken(token), created_at: timestamp(now), last_used_at: null, expires_at: expiresAt };
    await this.#context.db.insertInto('api_tokens').values(row).execute();
    return toInfo(row);
  }

  /** `user`'s tokens (never the tokens themselves). */
  async list(user: UserRef): Promise<ApiTokenInfo[]> {
    const owner = await requireUser(this.#context, user);
    const rows = await this.#context.db.selectFrom('api_tokens').selectAll().where('user_id', '=', owner.id).orderBy('created_at').execute();
    return rows.map(toInfo);
  }

  /** Revokes one of `user`'s tokens by prefix or id; throws NOT_FOUND (also for another user's token). */
  async revoke(user: UserRef, prefixOrId: string): Promise<void> {
    const owner = await requireUser(this.#context, user);
    const result = await this.#context.db
      .deleteFrom('api_tokens')
      .where('user_id', '=', owner.id)
      .where((where) => where.or([where('prefix', '=', prefixOrId), where('id', '=', prefixOrId)]))
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new SwitchboardError(ErrorCode.NotFound, `user "${owner.name}" has no token "${prefixOrId}"`);
    // Announced as a change to the user, so processes that keep verified tokens for a moment forget them.
    await this.#context.notify({ kind: 'user', action: 'updated', userId: owner.id, name: owner.name });
  }

  /** The user a token belongs to, or undefined for an unknown, malformed or expired token. */
  async verify(token: string): Promise<RegistryUser | undefined> {
    return (await this.verifyWithExpiry(token))?.user;
  }

  /**
   * As {@link verify}, with when the token expires (ms since the epoch; undefined: never), so that
   * whoever remembers the answer can forget it in time.
   */
  async verifyWithExpiry(token: string): Promise<{ user: RegistryUser; expiresAt: number | undefined } | undefined> {
    const prefix = prefixOf(token);
    if (prefix === undefined) return undefined;
    const row = await this.#context.db
      .selectFrom('api_tokens')
      .innerJoin('users', 'users.id', 'api_tokens.user_id')
      .selectAll('users')
      .select(['api_tokens.id as token_id', 'api_tokens.token_hash', 'api_tokens.expires_at', 'api_tokens.last_used_at'])
      .where('api_tokens.prefix', '=', prefix)
      .executeTakeFirst();
    const presented = Buffer.from(hashToken(token), 'hex');
    // Compare even when no row matched, so the answer takes as long either way.
    const stored = Buffer.from(row?.token_hash ?? '0'.repeat(64), 'hex');
    const equal = stored.length === presented.length && timingSafeEqual(stored, presented);
    if (row === undefined || !equal) return undefined;
    const now = Date.now();
    if (row.expires_at !== null && Date.parse(row.expires_at) <= now) return undefined;
    if (row.last_used_at === null || now - Date.parse(row.last_used_at) > LAST_USED_RESOLUTION_MS) {
      // Best effort: a failed write must not fail the request being authenticated.
      await this.#context.db
        .updateTable('api_tokens')
        .set({ last_used_at: timestamp(new Date(now)) })
        .where('id', '=', row.token_id)
        .execute()
        .catch((error: unknown) => this.#context.logger.warn('cannot record token use', { error: String(error) }));
    }
    const user = toUser({ id: row.id, name: row.name, is_admin: row.is_admin, policy: row.policy, created_at: row.created_at, updated_at: row.updated_at });
    return { user, expiresAt: row.expires_at === null ? undefined : Date.parse(row.expires_at) };
  }
}

/** The prefix that finds a token's row: the generated one, or one derived from a chosen token's hash. */
function prefixOf(token: string): string | undefined {
  const generated = TOKEN.exec(token)?.[1];
  if (generated !== undefined) return generated;
  if (!CHOSEN_TOKEN.test(token)) return undefined;
  return `h${hashToken(token).slice(0, 11)}`;
}

/** SHA-256 of a token, hex. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function toInfo(row: RegistryDatabase['api_tokens']): ApiTokenInfo {
  return {
    id: row.id,
    userId: row.user_id,
    ...(row.name === null ? {} : { name: row.name }),
    prefix: row.prefix,
    createdAt: row.created_at,
    ...(row.last_used_at === null ? {} : { lastUsedAt: row.last_used_at }),
    ...(row.expires_at === null ? {} : { expiresAt: row.expires_at }),
  };
}

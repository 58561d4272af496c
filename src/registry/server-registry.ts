/**
 * @module registry/server-registry
 * The per-user server registry: users, their servers (and shared ones), admin templates, API tokens,
 * the audit log and per-user secrets, in SQLite (embedded, the default) or PostgreSQL, with secrets
 * encrypted at rest and a tenant policy enforced on every registration.
 *
 * @example
 * ```ts
 * const registry = await ServerRegistry.open({ db: './.switchboard/switchboard.db' });
 * const alice = await registry.users.add('alice');
 * await registry.servers.add(alice, 'github', { url: 'https://api.githubcopilot.com/mcp/', apiKey: token });
 * const { token: bearer } = await registry.tokens.create(alice);
 * const user = await registry.verifyToken(bearer); // → alice
 * await registry.close();
 * ```
 */

import { randomUUID } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { rmSync } from 'node:fs';
import type { Kysely } from 'kysely';
import { ErrorCode, SwitchboardError, isSwitchboardError } from '../errors.js';
import { noopLogger, type Logger } from '../logger.js';
import { TypedEmitter } from '../util/typed-emitter.js';
import { AccessStore } from './access-store.js';
import { AuditStore } from './audit-store.js';
import { SqliteAuditInsert } from './sqlite-audit-insert.js';
import { GroupStore } from './group-store.js';
import { SqlBucketStore } from './rate-bucket-store.js';
import { DatabaseClock } from './database-clock.js';
import { ChangeFeed, DEFAULT_WATCH_INTERVAL_MS, type SessionMessageNotice } from './change-feed.js';
import type { RegistryDatabase } from './database-schema.js';
import { DEFAULT_DATABASE_PATH, databaseError, openDatabase, type OpenedDatabase, type RegistryBackend } from './open-database.js';
import { parseStoredJson, requireUser, type RegistryContext } from './registry-context.js';
import type { RegistryChange, RegistryUser, UserRef } from './registry-types.js';
import { systemResolver, type HostResolver } from './resolve-host.js';
import { SECRET_KEY_ENV, SecretBox, commitPendingKeyFile, pendingKeyFile, writePendingKeyFile } from './secret-box.js';
import { SETTING_KEY_ID, getSetting, loadSecretBox, setSetting } from './load-secret-box.js';
import { sealClearSecrets } from './seal-clear-secrets.js';
import { ClusterStore } from './cluster-store.js';
import { ReplicaStatsStore } from './replica-stats-store.js';
import { CallLeaseStore } from './call-lease-store.js';
import { SessionStateStore } from './session-state-store.js';
import { RegistryCatalogStore } from './registry-catalog-store.js';
import { OAuthServerStore } from './oauth-server-store.js';
import { ServerStore, type UserServerConfig } from './server-store.js';
import { TemplateStore } from './template-store.js';
import { TenantView } from './tenant-view.js';
import { effectivePolicy, parsePolicy, type TenantPolicy } from './tenant-policy.js';
import { TokenStore } from './token-store.js';
import { UserSecretStore } from './user-secret-store.js';
import { UserStore } from './user-store.js';

/** The environment variable naming the database (a file path or a `postgres://` URL). */
export const DATABASE_ENV = 'SWITCHBOARD_DB';
/** The key file beside an SQLite database. */
export const KEY_FILE_NAME = 'secret.key';

const SETTING_POLICY = 'tenant_policy';

/** Options of {@link ServerRegistry.open}. */
export interface ServerRegistryOptions {
  /** A `postgres://` URL or an SQLite file path. @default $SWITCHBOARD_DB, else DEFAULT_DATABASE_PATH */
  db?: string;
  /** The secret key (32 bytes, base64 or hex). @default $SWITCHBOARD_SECRET_KEY, else the key file */
  secretKey?: string;
  /** The key file. @default `secret.key` beside the SQLite file; `./.switchboard/secret.key` for PostgreSQL */
  keyFile?: string;
  /** @default noopLogger */
  logger?: Logger;
  /** Resolves host names for the SSRF rules. @default the system resolver */
  resolveHost?: HostResolver;
  /** What `${VAR}` in admin-defined entries and templates expands from. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /** Relative paths (an SQLite path, `cwd` of admin entries) resolve against it. @default process.cwd() */
  baseDir?: string;
  /** Report changes made by other processes as `change` events. @default true */
  watch?: boolean;
  /** SQLite: how often to look for other processes' commits. @default DEFAULT_WATCH_INTERVAL_MS */
  watchIntervalMs?: number;
}

/** Events of a {@link ServerRegistry}. */
export interface ServerRegistryEvents {
  /** Something changed: by this process after it committed, or by another process (`remote`). */
  change: RegistryChange;
  /** A 2025-era session ended (its id's SHA-256): here, or on another replica (`remote`). */
  'session-ended': { digest: string; remote: boolean };
  /** A message of the gateway cluster's event relay (PostgreSQL only; this process's own ones included). */
  'cluster-message': string;
  /** Another replica got a message of a 2025-era session for a call that may run here (PostgreSQL only). */
  'session-message': SessionMessageNotice;
  /** A replica gave back a call lease of this user while at the limit (PostgreSQL: waiting calls try again). */
  'call-lease-released': { userId: string };
  /** A session's stored state changed (its id's SHA-256), here or on another replica (PostgreSQL). */
  'session-state-changed': { digest: string };
}

/** The result of {@link ServerRegistry.rotateSecretKey}. */
export interface KeyRotation {
  previousKeyId: string;
  keyId: string;
  /** How many encrypted values were re-encrypted. */
  reencrypted: number;
  /** Where the new key lives: the key file, or `SWITCHBOARD_SECRET_KEY` (which the operator must now set). */
  keySource: string;
}

/** The registry. Open it with {@link ServerRegistry.open}; close it when done. */
export class ServerRegistry extends TypedEmitter<ServerRegistryEvents> {
  readonly backend: RegistryBackend;
  /** The database, without credentials. */
  readonly label: string;
  readonly users: UserStore;
  /** Every server, by owner (operator level: any owner may be named). Tenants go through {@link forUser}. */
  readonly servers: ServerStore;
  readonly templates: TemplateStore;
  readonly tokens: TokenStore;
  readonly audit: AuditStore;
  readonly userSecrets: UserSecretStore;
  /** Each server spec's last known tool names, for the pool's clients (names stay put when a server is down). */
  readonly catalog: RegistryCatalogStore;
  /** Groups of users (issue 21). */
  readonly groups: GroupStore;
  /** Tool rules, rate limits and named endpoints (issue 21). */
  readonly access: AccessStore;
  /** Rate-limit buckets in the database, shared by every replica (issue 21). */
  readonly rateBuckets: SqlBucketStore;
  /** What the gateway's own OAuth authorization server stores (hashed codes and tokens, its keys). */
  readonly oauthServer: OAuthServerStore;
  /** The gateway cluster's replicas and ended sessions (issue 20). */
  readonly cluster: ClusterStore;
  /** Each replica's snapshot of its users' call statistics (issue 20). */
  readonly replicaStats: ReplicaStatsStore;
  /** Leases of calls under users' concurrent-call limits, cluster-wide (PostgreSQL). */
  readonly callLeases: CallLeaseStore;
  /** The database's clock, which the replicas of a cluster compare their leases and heartbeats by. */
  readonly clock: DatabaseClock;
  /** 2025-era sessions' log levels and subscriptions, for the replicas that resume them. */
  readonly sessionStates: SessionStateStore;
  readonly #opened: OpenedDatabase;
  readonly #box: SecretBox;
  readonly #keyFile: string | undefined;
  readonly #logger: Logger;
  readonly #feed: ChangeFeed;
  #closing: Promise<void> | undefined;

  private constructor(opened: OpenedDatabase, box: SecretBox, keyFile: string | undefined, options: ServerRegistryOptions) {
    super();
    this.backend = opened.backend;
    this.label = opened.label;
    this.#opened = opened;
    this.#box = box;
    this.#keyFile = keyFile;
    this.#logger = options.logger ?? noopLogger;
    this.onListenerError = (error, event) => this.#logger.error('registry event listener threw', { event, error: String(error) });
    this.#feed = new ChangeFeed({
      opened,
      origin: randomUUID(),
      logger: this.#logger,
      pollIntervalMs: options.watchIntervalMs ?? DEFAULT_WATCH_INTERVAL_MS,
      onChange: (change) => {
        if (this.#closing === undefined) this.emit('change', change);
      },
      onSessionEnded: (digest) => {
        if (this.#closing === undefined) this.emit('session-ended', { digest, remote: true });
      },
      onClusterMessage: (payload) => {
        if (this.#closing === undefined) this.emit('cluster-message', payload);
      },
      onSessionMessage: (notice) => {
        if (this.#closing === undefined) this.emit('session-message', notice);
      },
      onCallLeaseReleased: (userId) => {
        if (this.#closing === undefined) this.emit('call-lease-released', { userId });
      },
      onSessionStateChanged: (digest) => {
        if (this.#closing === undefined) this.emit('session-state-changed', { digest });
      },
    });
    this.clock = new DatabaseClock(opened.db, opened.backend);
    const context: RegistryContext = {
      db: opened.db,
      backend: opened.backend,
      clock: this.clock,
      ...(opened.sqlite === undefined ? {} : { sqliteAudit: new SqliteAuditInsert(opened.sqlite) }),
      box,
      logger: this.#logger,
      resolveHost: options.resolveHost ?? systemResolver,
      env: options.env ?? process.env,
      baseDir: options.baseDir ?? process.cwd(),
      notify: (change) => this.#notify(change),
      globalPolicy: () => this.#storedPolicy(),
    };
    this.users = new UserStore(context);
    this.templates = new TemplateStore(context);
    this.servers = new ServerStore(context, this.templates);
    this.tokens = new TokenStore(context);
    this.audit = new AuditStore(context);
    this.userSecrets = new UserSecretStore(context);
    this.catalog = new RegistryCatalogStore(context);
    this.groups = new GroupStore(context);
    this.access = new AccessStore(context);
    this.rateBuckets = new SqlBucketStore(context);
    this.oauthServer = new OAuthServerStore(context);
    this.replicaStats = new ReplicaStatsStore(context);
    this.callLeases = new CallLeaseStore(context);
    this.sessionStates = new SessionStateStore(context);
    this.cluster = new ClusterStore(context, async (digest) => {
      this.emit('session-ended', { digest, remote: false });
      await this.#feed.publishSessionEnded(digest).catch((error: unknown) => this.#logger.warn('cannot publish an ended session', { error: String(error) }));
    });
  }

  /**
   * Opens (creating on first use) and migrates the database, and loads the secret key. Throws
   * DATABASE_ERROR when the database cannot be reached or migrated, SECRET_KEY_INVALID when the key
   * is missing or is not the one the stored secrets were encrypted with.
   */
  static async open(options: ServerRegistryOptions = {}): Promise<ServerRegistry> {
    const baseDir = options.baseDir ?? process.cwd();
    const target = options.db ?? nonEmpty(process.env[DATABASE_ENV]) ?? DEFAULT_DATABASE_PATH;
    const opened = await openDatabase(target, baseDir);
    try {
      try {
        // Loaded here: kysely's migrator is not needed by code that never opens a registry.
        const { runMigrations } = await import('./migrations/run-migrations.js');
        await runMigrations(opened.db as Kysely<unknown>);
      } catch (error) {
        throw isSwitchboardError(error) ? error : databaseError(`cannot migrate ${opened.label}`, error);
      }
      const secretKey = options.secretKey ?? nonEmpty(process.env[SECRET_KEY_ENV]);
      const keyFile = secretKey !== undefined ? undefined : (options.keyFile ?? (opened.file !== undefined ? join(dirname(opened.file), KEY_FILE_NAME) : resolve(baseDir, '.switchboard', KEY_FILE_NAME)));
      const box = await loadSecretBox(opened.db, secretKey, keyFile);
      const registry = new ServerRegistry(opened, box, keyFile, options);
      await sealClearSecrets({ db: opened.db, box, logger: options.logger ?? noopLogger });
      await registry.clock.sync();
      if (options.watch !== false) await registry.#feed.start();
      return registry;
    } catch (error) {
      await opened.db.destroy().catch(() => {});
      throw error;
    }
  }

  /**
   * Sends messages to every replica on this database (their `cluster-message` events, and this one's),
   * in order, in one round trip: PostgreSQL NOTIFY, each under 8000 bytes; nothing on SQLite (one replica).
   */
  publishClusterMessages(payloads: readonly string[]): Promise<void> {
    return this.#feed.publishClusterMessages(payloads);
  }

  /**
   * A key of its own for `purpose`, derived (HKDF) from the secret key: every process with the same
   * key derives the same one. Call once and keep it; it changes when the key is rotated.
   */
  derivedKey(purpose: string): Buffer {
    return this.#box.subkey(purpose);
  }

  /** Tells the other replicas about a session message for a call (a cancellation, an answer; a no-op on SQLite: one replica). */
  publishSessionMessage(notice: SessionMessageNotice): Promise<void> {
    return this.#feed.publishSessionMessage(notice);
  }

  /** The id of the key secrets are encrypted with (a fingerprint, not the key). */
  get secretKeyId(): string {
    return this.#box.keyId;
  }

  /** The user an API token belongs to, or undefined (unknown, malformed, expired or revoked token). */
  verifyToken(token: string): Promise<RegistryUser | undefined> {
    return this.tokens.verify(token);
  }

  /** The registry as `user` sees it: their servers, tokens and audit entries only. */
  forUser(user: RegistryUser): TenantView {
    return new TenantView({ servers: this.servers, templates: this.templates, tokens: this.tokens, audit: this.audit }, user);
  }

  /** The enabled servers of a user, decrypted, for the client pool. */
  configForUser(user: UserRef): Promise<UserServerConfig> {
    return this.servers.configFor(user);
  }

  /** The global tenant policy, defaults applied. */
  async policy(): Promise<TenantPolicy> {
    return effectivePolicy(await this.#storedPolicy(), undefined);
  }

  /** The policy that binds `user`; undefined for an admin. */
  async policyFor(user: UserRef): Promise<TenantPolicy | undefined> {
    const found = await requireUser({ db: this.#opened.db }, user);
    return found.isAdmin ? undefined : effectivePolicy(await this.#storedPolicy(), found.policy);
  }

  /** Changes the global tenant policy: the given fields replace the stored ones. */
  async setPolicy(changes: Partial<TenantPolicy>): Promise<TenantPolicy> {
    const merged = { ...(await this.#storedPolicy()), ...parsePolicy(changes) };
    await setSetting(this.#opened.db, SETTING_POLICY, JSON.stringify(merged));
    await this.#notify({ kind: 'policy', action: 'updated', userId: null });
    return effectivePolicy(merged, undefined);
  }

  /**
   * Re-encrypts every secret under a new key, in one transaction. With a key file, the new key is
   * generated and replaces the file once the database has committed (an interrupted rotation is
   * finished or undone on the next open). With `SWITCHBOARD_SECRET_KEY`, pass `newKey` and set the
   * variable to it afterwards. Other processes must restart with the new key.
   */
  async rotateSecretKey(options: { newKey?: string } = {}): Promise<KeyRotation> {
    const previousKeyId = this.#box.keyId;
    if (this.#keyFile === undefined && options.newKey === undefined) {
      throw new SwitchboardError(ErrorCode.InvalidArgument, `the key comes from ${SECRET_KEY_ENV}, so the new key must be given`, {
        hint: 'generate one with `openssl rand -base64 32`, pass it as SWITCHBOARD_NEW_SECRET_KEY, then set SWITCHBOARD_SECRET_KEY to it',
      });
    }
    const next = options.newKey === undefined ? SecretBox.generateKey() : SecretBox.parseKey(options.newKey, 'the new key');
    if (next.id === previousKeyId) throw new SwitchboardError(ErrorCode.InvalidArgument, 'the new key is the key in use');
    if (this.#keyFile !== undefined) writePendingKeyFile(this.#keyFile, next);
    const old = this.#box;
    const fresh = new SecretBox(next, this.#keyFile ?? SECRET_KEY_ENV);
    const decrypt = (text: string, context: string): string => old.decrypt(text, context);
    const encrypt = (text: string, context: string): string => fresh.encrypt(text, context);
    let reencrypted = 0;
    try {
      await this.#opened.db.transaction().execute(async (trx) => {
        reencrypted += await ServerStore.reencrypt(trx, decrypt, encrypt);
        const templates = await trx.selectFrom('server_templates').select(['id', 'secrets']).where('secrets', 'is not', null).execute();
        for (const row of templates) {
          if (row.secrets === null) continue;
          const context = `template:${row.id}`;
          await trx.updateTable('server_templates').set({ secrets: encrypt(decrypt(row.secrets, context), context) }).where('id', '=', row.id).execute();
          reencrypted++;
        }
        const secrets = await trx.selectFrom('user_secrets').select(['id', 'secret']).execute();
        for (const row of secrets) {
          const context = `user-secret:${row.id}`;
          await trx.updateTable('user_secrets').set({ secret: encrypt(decrypt(row.secret, context), context) }).where('id', '=', row.id).execute();
          reencrypted++;
        }
        await setSetting(trx, SETTING_KEY_ID, next.id);
      });
    } catch (error) {
      if (this.#keyFile !== undefined) rmSync(pendingKeyFile(this.#keyFile), { force: true });
      throw error;
    }
    if (this.#keyFile !== undefined) commitPendingKeyFile(this.#keyFile);
    this.#box.useKey(next);
    this.#logger.info('secret key rotated', { previousKeyId, keyId: next.id, reencrypted });
    return { previousKeyId, keyId: next.id, reencrypted, keySource: this.#keyFile ?? SECRET_KEY_ENV };
  }

  /** Stops watching and closes the database. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      try {
        await this.#feed.close();
      } finally {
        this.removeAllListeners();
        await this.#opened.db.destroy();
      }
    })();
    return this.#closing;
  }

  async #notify(change: Omit<RegistryChange, 'remote'>): Promise<void> {
    if (this.#closing !== undefined) return;
    this.emit('change', { ...change, remote: false });
    try {
      await this.#feed.publish(change);
    } catch (error) {
      // The change is committed; other replicas will see it on their next refresh.
      this.#logger.warn('cannot publish a registry change', { error: String(error) });
    }
  }

  async #storedPolicy(): Promise<Partial<TenantPolicy>> {
    const stored = await getSetting(this.#opened.db, SETTING_POLICY);
    return stored === undefined ? {} : parsePolicy(parseStoredJson(stored, 'tenant policy'), 'settings.tenant_policy');
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/**
 * @module gateway/cluster-stats
 * `/api/stats` for the whole cluster (issue 20). Every {@link HEARTBEAT_INTERVAL_MS} a replica writes
 * the `client.stats()` of the users whose numbers changed since its last write (table
 * `replica_user_stats`; nothing when nothing changed), and `/api/stats` adds the snapshots of the
 * other live replicas to its own live numbers: a call on another replica shows within one heartbeat
 * (2 s). The answer says how many replicas it covers (`replicas`). On SQLite (one replica) it does
 * nothing and `/api/stats` answers as before.
 */

import type { Logger } from '../logger.js';
import { mergeClientStats } from '../metrics/merge-client-stats.js';
import { parseClientStats } from '../metrics/parse-client-stats.js';
import type { ClientStats } from '../metrics/stats-types.js';
import type { ServerRegistry } from '../registry/index.js';
import type { UserClient } from '../pool/index.js';
import { HEARTBEAT_INTERVAL_MS, REPLICA_EXPIRY_MS, REPLICA_FORGET_MS } from './replica-heartbeat.js';

/** Rows of replicas gone from the `replicas` table are deleted every this many writes. @default 30 */
const SWEEP_EVERY_WRITES = 30;

/** A user's statistics over the cluster. */
export type ClusterClientStats = ClientStats & { replicas?: number };

/** One replica's side of the cluster-wide statistics. */
export class ClusterStats {
  readonly #registry: ServerRegistry;
  readonly #replica: string;
  readonly #logger: Logger;
  readonly #enabled: boolean;
  readonly #clients = new Map<string, Pick<UserClient, 'stats'>>();
  /** What was last written, by user id. */
  readonly #written = new Map<string, string>();
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> | undefined;
  #writes = 0;
  #failing = false;
  #closed = false;

  constructor(registry: ServerRegistry, replica: string, logger: Logger, intervalMs: number = HEARTBEAT_INTERVAL_MS) {
    this.#registry = registry;
    this.#replica = replica;
    this.#logger = logger;
    this.#enabled = registry.backend === 'postgres';
    if (!this.#enabled) return;
    this.#timer = setInterval(() => void this.write(), intervalMs);
    this.#timer.unref();
  }

  /** Remembers `userId`'s client here (called on every lease; cheap when known). */
  track(userId: string, client: Pick<UserClient, 'stats'>): void {
    if (this.#enabled && this.#clients.get(userId) !== client) this.#clients.set(userId, client);
  }

  /** Forgets `userId`'s client (evicted): its row goes at the next write. */
  untrack(userId: string): void {
    this.#clients.delete(userId);
  }

  /** Writes the snapshots that changed (the timer's work; awaitable for tests). */
  write(): Promise<void> {
    if (!this.#enabled || this.#closed) return Promise.resolve();
    this.#writing ??= this.#write().finally(() => (this.#writing = undefined));
    return this.#writing;
  }

  /** `local` (this replica's live numbers for `userId`) plus the other live replicas' snapshots. */
  async forUser(userId: string, local: ClientStats): Promise<ClusterClientStats> {
    if (!this.#enabled) return local;
    const live = await this.#registry.cluster.replicas(REPLICA_EXPIRY_MS, REPLICA_FORGET_MS);
    const others = live.map((replica) => replica.id).filter((id) => id !== this.#replica);
    const parts = [local];
    for (const row of await this.#registry.replicaStats.forUser(userId, others)) {
      const stats = parseClientStats(row.stats);
      if (stats !== undefined) parts.push(stats);
    }
    return { ...mergeClientStats(parts), replicas: others.length + 1 };
  }

  /** Stops writing and deletes this replica's rows. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    if (!this.#enabled) return;
    await this.#writing?.catch(() => {});
    await this.#registry.replicaStats.forget(this.#replica).catch((error: unknown) => this.#logger.warn('cannot delete this replica\'s statistics', { error: String(error) }));
  }

  async #write(): Promise<void> {
    const changed: Array<{ userId: string; stats: string }> = [];
    for (const [userId, client] of this.#clients) {
      const stats = JSON.stringify(client.stats());
      if (this.#written.get(userId) !== stats) changed.push({ userId, stats });
    }
    const gone = [...this.#written.keys()].filter((userId) => !this.#clients.has(userId));
    if (changed.length === 0 && gone.length === 0) return;
    try {
      await this.#registry.replicaStats.save(this.#replica, changed, [...this.#clients.keys()]);
      for (const row of changed) this.#written.set(row.userId, row.stats);
      for (const userId of gone) this.#written.delete(userId);
      if (++this.#writes % SWEEP_EVERY_WRITES === 0) await this.#registry.replicaStats.forgetGoneReplicas();
      if (this.#failing) this.#logger.info('the cluster statistics reach the database again', {});
      this.#failing = false;
    } catch (error) {
      if (!this.#failing) this.#logger.warn('cannot write this replica\'s statistics', { error: String(error) });
      this.#failing = true;
    }
  }
}

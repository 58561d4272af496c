/**
 * @module gateway/replica-heartbeat
 * This replica's place in the cluster. Replicas that share a registry database (and its secret key)
 * are one cluster, with no flag and no list of peers: each writes a heartbeat row (id, start, last
 * seen, URL) every {@link HEARTBEAT_INTERVAL_MS}; a replica whose row is older than
 * {@link REPLICA_EXPIRY_MS} is out (it died, or cannot reach the database), and its row is deleted
 * a while later. `/readyz` reports this replica's state and the live replicas.
 */

import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.js';
import type { ClusterStore, ReplicaRecord } from '../registry/index.js';
import { SESSION_MAX_AGE_MS } from './session-seal.js';

/** How often a replica writes its heartbeat. @default 2000 */
export const HEARTBEAT_INTERVAL_MS = 2_000;
/** A replica not seen for this long is out of the cluster. @default 10000 */
export const REPLICA_EXPIRY_MS = 10_000;
/** A dead replica's row is deleted this long after its last beat. @default 600000 */
export const REPLICA_FORGET_MS = 10 * 60_000;
/** How often a replica deletes the ended sessions whose ids have expired anyway. @default 1800000 */
export const ENDED_SESSIONS_SWEEP_MS = 30 * 60_000;

/** What `/readyz` says about the cluster. */
export interface ClusterStatus {
  replica: string;
  inCluster: boolean;
  /** Live replicas, this one included (when in the cluster). */
  replicas: ReplicaRecord[];
}

/** The heartbeat of one replica. */
export class ReplicaHeartbeat {
  /** This replica's id (new at every start). */
  readonly id = randomUUID();
  readonly startedAt = new Date().toISOString();
  readonly #cluster: ClusterStore;
  readonly #logger: Logger;
  readonly #intervalMs: number;
  #url: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  #lastBeat = 0;
  #lastSweep = 0;
  #failing = false;
  #closed = false;
  #started = false;
  /** Live replicas at the last beat (this one included); 1 until then. */
  #live = 1;

  constructor(cluster: ClusterStore, logger: Logger, intervalMs: number = HEARTBEAT_INTERVAL_MS) {
    this.#cluster = cluster;
    this.#logger = logger;
    this.#intervalMs = intervalMs;
  }

  /** Joins the cluster (the first beat is awaited, and throws when the database refuses it), then beats on a timer. */
  async start(url: string | undefined): Promise<void> {
    this.#url = url;
    this.#started = true;
    await this.#cluster.heartbeat({ id: this.id, url, startedAt: this.startedAt });
    this.#lastBeat = Date.now();
    this.#live = await this.#cluster.liveCount(REPLICA_EXPIRY_MS);
    if (this.#closed) return;
    this.#timer = setInterval(() => void this.#beat(), this.#intervalMs);
    this.#timer.unref();
  }

  /** True once {@link start} was called. */
  get started(): boolean {
    return this.#started;
  }

  /** True while the last heartbeat reached the database less than {@link REPLICA_EXPIRY_MS} ago. */
  get inCluster(): boolean {
    return !this.#closed && this.#lastBeat > 0 && Date.now() - this.#lastBeat < REPLICA_EXPIRY_MS;
  }

  /**
   * Live replicas as of the last beat (or `/readyz`), this one included; 1 while out of the cluster.
   * What decides whether calls share their user's limit with other replicas (no query per call).
   */
  get liveReplicas(): number {
    return this.inCluster ? Math.max(1, this.#live) : 1;
  }

  /** This replica's state and the live replicas. */
  async status(): Promise<ClusterStatus> {
    const replicas = await this.#cluster.replicas(REPLICA_EXPIRY_MS, REPLICA_FORGET_MS);
    this.#live = replicas.length;
    return { replica: this.id, inCluster: this.inCluster, replicas };
  }

  /** Leaves the cluster (its row is deleted). Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.#lastBeat > 0) await this.#cluster.leave(this.id).catch((error: unknown) => this.#logger.warn('cannot leave the cluster', { error: String(error) }));
  }

  /** Ended sessions older than an id lives are forgotten (any replica may do it; deleting twice is harmless). */
  async #sweep(): Promise<void> {
    this.#lastSweep = Date.now();
    // Ended sessions are stamped on the database's clock: judged by it too.
    await this.#cluster.forgetEndedBefore(new Date(this.#cluster.now() - SESSION_MAX_AGE_MS));
  }

  async #beat(): Promise<void> {
    try {
      await this.#cluster.heartbeat({ id: this.id, url: this.#url, startedAt: this.startedAt });
      this.#lastBeat = Date.now();
      this.#live = await this.#cluster.liveCount(REPLICA_EXPIRY_MS);
      if (this.#lastBeat - this.#lastSweep >= ENDED_SESSIONS_SWEEP_MS) await this.#sweep();
      if (this.#failing) this.#logger.info('the cluster heartbeat reaches the database again', { replica: this.id });
      this.#failing = false;
    } catch (error) {
      if (!this.#failing) this.#logger.warn('cannot write the cluster heartbeat', { replica: this.id, error: String(error) });
      this.#failing = true;
    }
  }
}

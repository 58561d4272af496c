/**
 * @module gateway/session-ids
 * The ids of 2025-era sessions on one endpoint of a cluster: minted sealed (see
 * {@link SessionSeal}) from the client's `initialize`, read back by any replica, and ended for
 * every replica at once. An ended session is written to the database (`ended_sessions`) before the
 * `DELETE` is answered and announced over the change feed: a replica holding it closes it, and a
 * replica that resumes it later (even one started after the `DELETE`) finds the row. A shared
 * record rather than a notice alone, because a notice reaches only the replicas listening now.
 */

import type { ClusterStore, RegistryUser } from '../registry/index.js';
import { sessionDigest, type SessionSeal, type SessionState } from './session-seal.js';

/** What a replica may do with a session id it does not hold. */
export type SessionIdReading = { kind: 'resume'; state: SessionState } | { kind: 'not-found' } | { kind: 'forbidden' };

/** Session ids of one endpoint (`''` for `/mcp`). */
export class SessionIds {
  readonly #seal: SessionSeal;
  readonly #cluster: Pick<ClusterStore, 'endSession' | 'endedAmong' | 'now'>;
  readonly endpoint: string;

  constructor(seal: SessionSeal, cluster: Pick<ClusterStore, 'endSession' | 'endedAmong' | 'now'>, endpoint = '') {
    this.#seal = seal;
    this.#cluster = cluster;
    this.endpoint = endpoint;
  }

  /** The same, for the named endpoint `name`: an id of one endpoint does not open a session on another. */
  forEndpoint(name: string): SessionIds {
    return new SessionIds(this.#seal, this.#cluster, name);
  }

  /**
   * A new id for `user`'s session opened by the `initialize` request `body` (its params are what a
   * replica replays), stamped on the database's clock: every replica judges its age by that clock.
   */
  mint(user: RegistryUser, body: unknown, now: number = this.#cluster.now()): string {
    const params = isObject(body) && isObject(body.params) ? body.params : {};
    const info = isObject(params.clientInfo) && typeof params.clientInfo.name === 'string' && typeof params.clientInfo.version === 'string' ? params.clientInfo : { name: 'unknown', version: '0' };
    return this.#seal.seal({
      userId: user.id,
      endpoint: this.endpoint,
      protocolVersion: typeof params.protocolVersion === 'string' ? params.protocolVersion : '',
      clientCapabilities: isObject(params.capabilities) ? params.capabilities : {},
      clientInfo: info as SessionState['clientInfo'],
      issuedAt: now,
    });
  }

  /** Whether `user` may resume the session `id` here: 404 for what this cluster never issued (or ended), 403 for another user's. */
  async read(id: string, user: RegistryUser): Promise<SessionIdReading> {
    const state = this.#seal.open(id, this.#cluster.now());
    if (state === undefined || state.endpoint !== this.endpoint) return { kind: 'not-found' };
    if (state.userId !== user.id) return { kind: 'forbidden' };
    const ended = await this.#cluster.endedAmong([sessionDigest(id)]);
    return ended.size > 0 ? { kind: 'not-found' } : { kind: 'resume', state };
  }

  /** The client ended session `id`: recorded for every replica (resolves once written). */
  ended(id: string, userId: string): Promise<void> {
    return this.#cluster.endSession(sessionDigest(id), userId);
  }

  /** Of the `ids` given, those that ended (after the change feed lost notices). */
  async endedAmong(ids: readonly string[]): Promise<string[]> {
    const digests = new Map(ids.map((id) => [sessionDigest(id), id]));
    const ended = await this.#cluster.endedAmong([...digests.keys()]);
    return [...ended].map((digest) => digests.get(digest)).filter((id): id is string => id !== undefined);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

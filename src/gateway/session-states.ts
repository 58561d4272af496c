/**
 * @module gateway/session-states
 * What a 2025-era session set after `initialize` — its log level, its resource subscriptions — kept
 * where every replica of the cluster finds it (the registry's `session_states`, by the SHA-256 of
 * the id): saved when the client changes it, read once by a replica that resumes the session, and
 * applied again by a replica that already holds the session when another replica announces a change.
 * A failed write or read is logged and the session goes on with what this replica knows.
 */

import type { Logger } from '../logger.js';
import type { ServerRegistryEvents, SessionStateStore, StoredSessionState } from '../registry/index.js';
import { isLogLevel, type DownstreamSession, type UpstreamResource } from './downstream-session.js';
import { sessionDigest } from './session-seal.js';

/** The registry's side: the rows and the announcements. */
export interface SessionStateSource {
  readonly sessionStates: SessionStateStore;
  on(event: 'session-state-changed', listener: (event: ServerRegistryEvents['session-state-changed']) => void): unknown;
  off(event: 'session-state-changed', listener: (event: ServerRegistryEvents['session-state-changed']) => void): unknown;
}

/** The state of `record` as stored (subscriptions sorted, so equal states compare equal). */
export function stateOf(record: DownstreamSession): StoredSessionState {
  const subscriptions = [...record.subscriptions].map(([exposed, upstream]): [string, string, string] => [exposed, upstream.server, upstream.uri]).sort((a, b) => a[0].localeCompare(b[0]));
  return { ...(record.logLevel === undefined ? {} : { logLevel: record.logLevel }), subscriptions };
}

/** True when `record` already is in `state`. */
export function hasState(record: DownstreamSession, state: StoredSessionState): boolean {
  const sorted = { ...state, subscriptions: [...state.subscriptions].sort((a, b) => a[0].localeCompare(b[0])) };
  return JSON.stringify(stateOf(record)) === JSON.stringify(sorted);
}

/** Where a session's upstream subscriptions are made (the user's endpoint). */
export interface SubscriptionHost {
  subscribe(resource: UpstreamResource, signal: AbortSignal): Promise<void>;
  unsubscribe(resource: UpstreamResource): Promise<void>;
}

/** How long subscribing upstream may take when a state is applied. @default 10000 */
export const APPLY_SUBSCRIBE_TIMEOUT_MS = 10_000;

/**
 * Brings `record` to `state`: its log level, and its subscriptions (new ones subscribed upstream
 * through `host`, dropped ones unsubscribed). A subscription the upstream refuses is logged and left out.
 */
export async function applySessionState(record: DownstreamSession, host: SubscriptionHost, state: StoredSessionState, logger: Logger): Promise<void> {
  record.logLevel = isLogLevel(state.logLevel) ? state.logLevel : undefined;
  const wanted = new Map(state.subscriptions.map(([exposed, server, uri]) => [exposed, { server, uri }]));
  for (const [exposed, upstream] of [...record.subscriptions]) {
    const still = wanted.get(exposed);
    if (still !== undefined && still.server === upstream.server && still.uri === upstream.uri) continue;
    record.subscriptions.delete(exposed);
    await host.unsubscribe(upstream);
  }
  await Promise.all(
    [...wanted].map(async ([exposed, upstream]) => {
      if (record.subscriptions.has(exposed)) return;
      try {
        await host.subscribe(upstream, AbortSignal.timeout(APPLY_SUBSCRIBE_TIMEOUT_MS));
        record.subscriptions.set(exposed, upstream);
      } catch (error) {
        logger.warn('a subscription of a resumed session could not be made here', { server: upstream.server, error: String(error) });
      }
    }),
  );
}

/** Session states shared by the cluster. */
export class SessionStates {
  readonly #source: SessionStateSource;
  readonly #logger: Logger;

  constructor(source: SessionStateSource, logger: Logger) {
    this.#source = source;
    this.#logger = logger;
  }

  /** Stores the state of session `id` (awaited before the client's request is answered). */
  async save(id: string, userId: string, record: DownstreamSession): Promise<void> {
    try {
      await this.#source.sessionStates.save(sessionDigest(id), userId, stateOf(record));
    } catch (error) {
      this.#logger.warn('cannot store a session state: other replicas will not know it', { error: String(error) });
    }
  }

  /** The stored state of session `id` of `userId`, or undefined (none, or the database failed). */
  async load(id: string, userId: string): Promise<StoredSessionState | undefined> {
    try {
      return await this.#source.sessionStates.load(sessionDigest(id), userId);
    } catch (error) {
      this.#logger.warn('cannot read a session state', { error: String(error) });
      return undefined;
    }
  }

  /** Forgets the state of ended session `id`. */
  async remove(id: string): Promise<void> {
    await this.#source.sessionStates.remove(sessionDigest(id)).catch((error: unknown) => this.#logger.warn('cannot delete a session state (it expires with the id)', { error: String(error) }));
  }

  /** Calls `listener` with the digest of every session whose state a replica stored; returns the function that stops it. */
  watch(listener: (digest: string) => void): () => void {
    const onChanged = ({ digest }: { digest: string }): void => listener(digest);
    this.#source.on('session-state-changed', onChanged);
    return () => this.#source.off('session-state-changed', onChanged);
  }
}

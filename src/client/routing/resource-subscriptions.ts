/**
 * @module client/routing/resource-subscriptions
 * The one owner of a client's resource subscriptions: which URIs of which server are subscribed,
 * counted per subscriber. The first subscriber sends `resources/subscribe`, the last one to leave
 * sends `resources/unsubscribe`; and whenever a server comes (back) up on a new session — a
 * restart, a reconnect, a re-initialized HTTP session, a replacement by a reconfiguration — every
 * URI still subscribed is sent again, since a server keeps subscriptions per session.
 */

import type { CallOptions } from '../../connection/server-connection.js';
import type { Logger } from '../../logger.js';

/** Where subscription requests go: a server's connection. */
export interface SubscriptionTarget {
  request(method: string, params: Record<string, unknown>, options?: CallOptions): Promise<unknown>;
}

/** A resource as its server names it. */
export interface SubscribedResource {
  server: string;
  uri: string;
}

/** How long an unsubscribe may take; nobody waits for it. */
const UNSUBSCRIBE_TIMEOUT_MS = 5_000;

interface Subscription {
  subscribers: number;
  /** The first `resources/subscribe`; later subscribers wait for it and share its outcome. */
  sent: Promise<unknown>;
}

/** Subscribed resources per server, with their subscriber counts. */
export class ResourceSubscriptions {
  readonly #servers = new Map<string, Map<string, Subscription>>();
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /**
   * Counts one more subscriber of `uri` on `server`; the first one sends `resources/subscribe` to
   * `target`. Rejects (and counts nobody) when that request fails.
   */
  async add(resource: SubscribedResource, target: SubscriptionTarget, options: CallOptions = {}): Promise<void> {
    const uris = this.#servers.get(resource.server) ?? new Map<string, Subscription>();
    this.#servers.set(resource.server, uris);
    let subscription = uris.get(resource.uri);
    if (subscription === undefined) {
      const created: Subscription = { subscribers: 0, sent: target.request('resources/subscribe', { uri: resource.uri }, options) };
      subscription = created;
      uris.set(resource.uri, created);
      created.sent.catch(() => {
        if (uris.get(resource.uri) === created) uris.delete(resource.uri);
        if (uris.size === 0 && this.#servers.get(resource.server) === uris) this.#servers.delete(resource.server);
      });
    }
    subscription.subscribers++;
    await subscription.sent;
  }

  /**
   * One subscriber of `uri` on `server` leaves; after the last one, `resources/unsubscribe` is sent
   * to `target` when the server is up (best effort: a failure is only logged). False when nobody
   * was subscribed.
   */
  async remove(resource: SubscribedResource, target: SubscriptionTarget | undefined): Promise<boolean> {
    const uris = this.#servers.get(resource.server);
    const subscription = uris?.get(resource.uri);
    if (uris === undefined || subscription === undefined) return false;
    if (--subscription.subscribers > 0) return true;
    uris.delete(resource.uri);
    if (uris.size === 0) this.#servers.delete(resource.server);
    await target
      ?.request('resources/unsubscribe', { uri: resource.uri }, { timeoutMs: UNSUBSCRIBE_TIMEOUT_MS })
      .catch((error: unknown) => this.#logger.debug('unsubscribing from a resource failed', { server: resource.server, uri: resource.uri, error: String(error) }));
    return true;
  }

  /** The subscription of `uri` (on `server`, or on the one server subscribed to it). */
  find(uri: string, server?: string): SubscribedResource | undefined {
    const servers = server === undefined ? [...this.#servers.keys()].filter((name) => this.#servers.get(name)?.has(uri) === true) : this.#servers.get(server)?.has(uri) === true ? [server] : [];
    return servers.length === 1 && servers[0] !== undefined ? { server: servers[0], uri } : undefined;
  }

  /** Every subscribed resource with its number of subscribers. */
  list(): Array<SubscribedResource & { subscribers: number }> {
    return [...this.#servers].flatMap(([server, uris]) => [...uris].map(([uri, subscription]) => ({ server, uri, subscribers: subscription.subscribers })));
  }

  /** The subscribed URIs of `server`. */
  uris(server: string): string[] {
    return [...(this.#servers.get(server)?.keys() ?? [])];
  }

  /**
   * `server` is up on a new session: subscribes it again to every URI still subscribed. Failures are
   * logged (the subscriptions stay, and are sent again the next time the server comes up).
   */
  async resend(server: string, target: SubscriptionTarget, timeoutMs: number): Promise<void> {
    const uris = this.uris(server);
    if (uris.length === 0) return;
    this.#logger.debug('subscribing again to resources', { server, resources: uris.length });
    await Promise.all(
      uris.map((uri) =>
        target
          .request('resources/subscribe', { uri }, { timeoutMs })
          .catch((error: unknown) => this.#logger.warn('subscribing again to a resource failed; its updates are not received', { server, uri, error: String(error) })),
      ),
    );
  }

  /** Drops the subscriptions of a server that was removed. */
  forget(server: string): void {
    this.#servers.delete(server);
  }
}

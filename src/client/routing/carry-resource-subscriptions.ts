/**
 * @module client/routing/carry-resource-subscriptions
 * When one client replaces another (a per-user client whose network policy changed), the
 * subscribers of the old one's resources carry on: the new one is subscribed as many times.
 */

import type { Logger } from '../../logger.js';
import type { MultiServerClient } from '../multi-server-client.js';

/** Subscribes `next` to every resource `previous` is subscribed to, once per subscriber; failures are logged. */
export async function carryResourceSubscriptions(previous: MultiServerClient, next: MultiServerClient, logger: Logger): Promise<void> {
  await Promise.all(
    previous.resourceSubscriptions().flatMap(({ server, uri, subscribers }) =>
      Array.from({ length: subscribers }, () =>
        next.subscribeResource(uri, { server }).catch((error: unknown) => logger.warn('a resource subscription could not be carried over to the new client; its updates are not received', { server, uri, error: String(error) })),
      ),
    ),
  );
}

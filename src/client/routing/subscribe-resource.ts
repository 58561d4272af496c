/**
 * @module client/routing/subscribe-resource
 * Subscribing to a resource's updates and ending a subscription, counted per call; the subscriptions
 * themselves (and sending them again after a reconnect) are `resource-subscriptions.ts`.
 */

import type { ClientCore } from '../client-core.js';
import { isServing } from '../serving.js';
import { resourceOwner, subscribedResourceOf } from './resource-owner.js';
import type { SubscribedResource } from './resource-subscriptions.js';
import { servingConnection } from './serving-connection.js';

/** Subscribes to `uri` (found like a read); resolves with its server and the URI as that server names it. */
export async function subscribeResource(core: ClientCore, uri: string, options: { server?: string; signal?: AbortSignal }): Promise<SubscribedResource> {
  const resource = await resourceOwner(core, uri, options.server);
  await core.subscriptions.add(resource, servingConnection(core, resource.server), options.signal === undefined ? {} : { signal: options.signal });
  return resource;
}

/** Ends one subscription to `uri`; the last one unsubscribes at the server (when it serves). */
export function unsubscribeResource(core: ClientCore, uri: string, options: { server?: string }): Promise<boolean> {
  const resource = subscribedResourceOf(core, uri, options.server);
  if (resource === undefined) return Promise.resolve(false);
  const slot = core.slots.get(resource.server);
  return core.subscriptions.remove(resource, slot !== undefined && isServing(slot.state) ? slot.connection : undefined);
}

/**
 * @module client/servers/close-slots
 * Closing a client: no retry or re-list starts any more, removed servers still draining stop
 * waiting, every connection closes (after a start under way settles), and the catalog cache is
 * flushed; every server is reported closed whatever happened.
 */

import type { ClientCore } from '../client-core.js';
import { setSlotState } from './server-slot.js';

/** Closes every server of the client. */
export async function closeSlots(core: ClientCore): Promise<void> {
  const slots = [...core.slots.values()];
  for (const slot of slots) slot.listTimers.cancelAll();
  // Removed servers still finishing their calls close now too.
  for (const slot of core.retiringSlots) slot.idle?.();
  try {
    await Promise.all([
      ...slots.map(async (slot) => {
        await slot.starting?.catch(() => {});
        await slot.connection?.close();
      }),
      ...core.retiring,
    ]);
    await core.catalogStore?.flush();
  } finally {
    for (const slot of slots) setSlotState(core, slot, 'closed');
  }
}

/**
 * @module client/servers/start-on-request
 * Starting a server because a program asked (not at connect, not by a background retry): one left
 * out by `autoStart`, or a failed one tried again now (e.g. after a person logged in to it).
 */

import type { ClientCore } from '../client-core.js';
import { setSlotState } from './server-slot.js';
import { startSlot } from './start-server.js';

/** Retries a failed server now; false when it is unknown, disabled or not failed. */
export async function retryServerNow(core: ClientCore, name: string): Promise<boolean> {
  const slot = core.slots.get(name);
  if (slot === undefined || slot.connection === undefined || slot.state !== 'failed' || core.closing) return false;
  // connect() makes a new attempt at once, cancels the pending retry and restarts its backoff.
  setSlotState(core, slot, 'connecting');
  await startSlot(core, slot, true);
  return true;
}

/** Starts a server left out by `autoStart` (or retries a failed one); false when unknown, disabled, up or starting. */
export async function startServerNow(core: ClientCore, name: string): Promise<boolean> {
  const slot = core.slots.get(name);
  if (slot?.state === 'failed') return retryServerNow(core, name);
  if (slot === undefined || slot.connection === undefined || slot.state !== 'closed' || slot.starting !== undefined || core.closing) return false;
  setSlotState(core, slot, 'connecting');
  await startSlot(core, slot, true);
  return true;
}

/**
 * @module client/servers/retire-slot
 * Taking a removed or replaced server out of service: its events stop counting, it finishes its
 * running calls (up to `drainTimeoutMs`), then it closes.
 */

import type { ClientCore } from '../client-core.js';
import { drainCalls } from './drain-calls.js';
import { setSlotState, type ServerSlot } from './server-slot.js';

/** Retires `slot`; `removed` (rather than replaced) also reports it closed and forgets its stats. */
export function retireSlot(core: ClientCore, slot: ServerSlot, removed: boolean): void {
  slot.retired = true;
  slot.listTimers.cancelAll();
  if (removed) setSlotState(core, slot, 'closed');
  core.retiringSlots.add(slot);
  const retiring = (async () => {
    if (!core.closing) await drainCalls(slot, core.options.drainTimeoutMs);
    core.retiringSlots.delete(slot);
    if (removed && !core.slots.has(slot.spec.name)) core.stats.forget(slot.spec.name);
    await slot.starting?.catch(() => {});
    await slot.connection?.close();
  })().catch((error: unknown) => core.logger.warn('closing a removed server failed', { server: slot.spec.name, error: String(error) }));
  core.retiring.add(retiring);
  void retiring.finally(() => core.retiring.delete(retiring));
}

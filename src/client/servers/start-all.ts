/**
 * @module client/servers/start-all
 * The first start of a client: every enabled server named by `autoStart` at once, each within its
 * own deadline; one failure never holds up the rest. Background retries begin only once `connect()`
 * has its answer, so that answer always reflects the first attempt.
 */

import { ErrorCode, SwitchboardError } from '../../errors.js';
import { rebuildCatalogs } from '../catalog/rebuild-catalogs.js';
import type { ClientCore } from '../client-core.js';
import { setSlotState } from './server-slot.js';
import { startSlot } from './start-server.js';

/** Starts the servers `autoStart` names; resolves when each is ready or has failed. */
export async function startAll(core: ClientCore): Promise<void> {
  const only = core.options.autoStart ?? true;
  const slots = [...core.slots.values()].filter((slot) => slot.spec.enabled && (only === true || (only !== false && only.includes(slot.spec.name))));
  for (const slot of core.slots.values()) if (!slots.includes(slot)) setSlotState(core, slot, 'closed');
  await Promise.all(slots.map((slot) => startSlot(core, slot, false)));
  rebuildCatalogs(core, 'reload', undefined, false);
  core.started = true;
  // The connections' Supervisors retry failed starts from now on.
  for (const slot of core.slots.values()) slot.connection?.armStartRetry();
}

/** With `onServerError: 'throw'`: the error listing every server that failed to start, if any did. */
export function startFailures(core: ClientCore): SwitchboardError | undefined {
  // Servers left out by `autoStart` are not failures (they stay `closed`).
  const failures = [...core.slots.values()].filter((slot) => slot.spec.enabled && slot.state !== 'ready' && slot.state !== 'closed');
  if (failures.length === 0) return undefined;
  return new SwitchboardError(
    ErrorCode.ServerStartFailed,
    `${failures.length} server${failures.length === 1 ? '' : 's'} failed to start:\n${failures.map((slot) => `  ${slot.lastError?.message ?? slot.spec.name}`).join('\n')}`,
    { operation: 'start', details: { failures: failures.map((slot) => ({ server: slot.spec.name, ...(slot.lastError?.toJSON() ?? {}) })) } },
  );
}

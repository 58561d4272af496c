/**
 * @module client/servers/apply-reconfigure
 * Carrying out a reconfiguration (see `reconfigure-plan.ts` for what it does): added and changed
 * servers start beside the running ones, and only once each is ready or failed do they take over;
 * removed and replaced ones drain and close; the catalog is rebuilt once.
 */

import type { SwitchboardConfig } from '../../config/server-spec.js';
import { ErrorCode, SwitchboardError, type ConfigIssue } from '../../errors.js';
import { rebuildCatalogs } from '../catalog/rebuild-catalogs.js';
import type { ClientCore } from '../client-core.js';
import { planReconfigure, type ReconfigureResult } from './reconfigure-plan.js';
import { retireSlot } from './retire-slot.js';
import { createServerSlot, type ServerSlot } from './server-slot.js';
import { startSlot } from './start-server.js';

/** Applies `config` to the running client. */
export async function applyReconfigure(core: ClientCore, config: SwitchboardConfig, warnings: readonly ConfigIssue[]): Promise<ReconfigureResult> {
  const plan = planReconfigure([...core.slots.values()].map((slot) => slot.spec), config.servers);
  const changed = new Set([...plan.added, ...plan.restarted]);
  const known = await core.catalogStore?.load(config.servers.filter((spec) => changed.has(spec.name)));
  const next = new Map<string, ServerSlot>();
  for (const spec of config.servers) if (changed.has(spec.name)) next.set(spec.name, createServerSlot(core, spec, known?.get(spec.name)));
  const starting = [...next.values()].filter((slot) => slot.spec.enabled);
  await Promise.all(starting.map((slot) => startSlot(core, slot, false)));
  if (core.closing) {
    await Promise.all([...next.values()].map((slot) => slot.connection?.close()));
    throw new SwitchboardError(ErrorCode.ServerDisconnected, 'the client was closed while it was being reconfigured', { operation: 'reconfigure' });
  }
  const leaving: ServerSlot[] = [];
  for (const name of [...plan.removed, ...plan.restarted]) {
    const old = core.slots.get(name);
    if (old !== undefined) leaving.push(old);
    core.cache.invalidate(name);
    core.catalogs.unavailable.forEach((server, tool) => server === name && core.catalogs.unavailable.delete(tool));
  }
  for (const name of plan.removed) {
    core.slots.delete(name);
    core.subscriptions.forget(name);
  }
  for (const [name, slot] of next) core.slots.set(name, slot);
  // Keep the order of the new configuration (status() and the catalog follow it).
  const ordered = config.servers.map((spec) => [spec.name, core.slots.get(spec.name)] as const).filter((pair): pair is readonly [string, ServerSlot] => pair[1] !== undefined);
  core.slots.clear();
  for (const [name, slot] of ordered) core.slots.set(name, slot);
  core.config = config;
  core.warnings = warnings;
  for (const slot of leaving) retireSlot(core, slot, plan.removed.includes(slot.spec.name));
  if (plan.added.length + plan.removed.length + plan.restarted.length > 0) rebuildCatalogs(core, 'reload', undefined, true);
  return plan;
}

/**
 * @module client/servers/refresh-lists
 * A server's lists (tools, prompts, resources, resource templates): listed at start, re-listed after
 * `list_changed` and after a reconnect (with its resource subscriptions sent again). Tools just
 * listed become the server's last known ones (written to the catalog cache).
 */

import type { ServerConnection } from '../../connection/server-connection.js';
import { rebuildCatalogs } from '../catalog/rebuild-catalogs.js';
import type { ClientCore } from '../client-core.js';
import { logOptionalListFailure } from './optional-list-failure.js';
import { setSlotState, type ServerSlot } from './server-slot.js';

/** Lists everything a server offers; only `tools/list` must succeed (the others may be unsupported). */
export async function listAll(core: ClientCore, slot: ServerSlot, connection: ServerConnection, timeoutMs: number): Promise<void> {
  const optional = (what: string) => (error: unknown): never[] => {
    logOptionalListFailure(core.logger, slot.spec.name, what, error);
    return [];
  };
  const [tools, prompts, resources, resourceTemplates] = await Promise.all([
    connection.listTools({ timeoutMs }),
    connection.listPrompts({ timeoutMs }).catch(optional('prompts')),
    connection.listResources({ timeoutMs }).catch(optional('resources')),
    connection.listResourceTemplates({ timeoutMs }).catch(optional('resource templates')),
  ]);
  slot.tools = tools;
  remember(core, slot);
  slot.prompts = prompts;
  slot.resources = resources;
  slot.resourceTemplates = resourceTemplates;
}

/** The server's tools as listed are now its last known ones (and are written to the catalog cache). */
function remember(core: ClientCore, slot: ServerSlot): void {
  slot.knownTools = slot.tools;
  if (core.catalogStore !== undefined && !slot.retired) void core.catalogStore.save(slot.spec, slot.tools.map((tool) => tool.name));
}

/** Re-lists one kind after the server said it changed; a failure keeps the previous list. */
export async function refreshList(core: ClientCore, slot: ServerSlot, connection: ServerConnection, kind: 'tools' | 'prompts' | 'resources'): Promise<void> {
  const current = (): boolean => connection === slot.connection && !core.closing && !slot.retired;
  if (!current()) return;
  try {
    if (kind === 'tools') {
      slot.tools = await connection.listTools();
      remember(core, slot);
    } else if (kind === 'prompts') slot.prompts = await connection.listPrompts();
    else {
      slot.resources = await connection.listResources();
      slot.resourceTemplates = await connection.listResourceTemplates();
    }
  } catch (error) {
    // Closing (or replacing) the connection ends the re-list: that is no failure worth a warning.
    core.logger[current() ? 'warn' : 'debug'](`re-listing ${kind} after list_changed failed`, { server: slot.spec.name, error: String(error) });
    return;
  }
  if (!current()) return;
  core.cache.invalidate(slot.spec.name);
  rebuildCatalogs(core, 'list-changed', slot.spec.name, true, kind);
}

/** A server came back: its lists may differ, cached results may be stale, and subscriptions are new. */
export async function refreshAfterReconnect(core: ClientCore, slot: ServerSlot, connection: ServerConnection): Promise<void> {
  const name = slot.spec.name;
  core.cache.invalidate(name);
  try {
    await Promise.all([listAll(core, slot, connection, slot.spec.startupTimeoutMs), core.subscriptions.resend(name, connection, slot.spec.startupTimeoutMs)]);
  } catch (error) {
    const ended = core.closing || slot.retired;
    core.logger[ended ? 'debug' : 'warn']('re-listing after reconnect failed; keeping the previous lists', { server: name, error: String(error) });
  }
  if (core.closing || slot.retired) return;
  slot.lastError = undefined;
  setSlotState(core, slot, 'ready');
  rebuildCatalogs(core, 'server-up', name);
}

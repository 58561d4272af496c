/**
 * @module client/servers/observe-connection
 * How the client follows one server's connection. The connection owns the state machine (restart,
 * reconnect, health, background retries of a failed start); the client only observes it: it passes
 * logs and resource updates on (an update drops the resource's cached reads), reports the connection's state changes (outside a start, whose
 * listing it reports itself), lists a server its Supervisor brought up after a failed start, re-lists
 * after `list_changed` and after a reconnect, and drops cached results when the server went away.
 */

import type { ServerConnection } from '../../connection/server-connection.js';
import { rebuildCatalogs } from '../catalog/rebuild-catalogs.js';
import type { ClientCore } from '../client-core.js';
import { refreshAfterReconnect, refreshList } from './refresh-lists.js';
import { setSlotState, type ServerSlot } from './server-slot.js';
import { startSlot } from './start-server.js';

/** Subscribes the client to `connection`'s events for `slot`. */
export function observeConnection(core: ClientCore, slot: ServerSlot, connection: ServerConnection): void {
  const server = slot.spec.name;
  const events = core.events;
  connection.on('list-changed', ({ kind }) => {
    if (connection !== slot.connection || slot.retired) return;
    slot.listTimers.trigger(kind, () => void refreshList(core, slot, connection, kind));
  });
  connection.on('resource-updated', ({ uri }) => {
    core.reads.invalidate(server, uri);
    events.emit('resources-changed', { server, uri });
  });
  connection.on('log', ({ level, logger, data }) => events.emit('server-log', { server, level, ...(logger === undefined ? {} : { logger }), data, source: 'mcp' }));
  connection.on('stderr', ({ line }) => events.emit('server-log', { server, level: 'info', data: line, source: 'stderr' }));
  connection.on('state-change', ({ to, error, trigger }) => {
    // During a start the slot's state covers listing too; the start sets it.
    if (slot.starting !== undefined || core.closing || slot.retired) return;
    // The connection retries a failed start in the background: once it is up, list as a start does.
    if (trigger === 'start-retry') {
      setSlotState(core, slot, 'connecting');
    } else if (to === 'ready' && slot.state === 'connecting') {
      void startSlot(core, slot, true);
    } else if (to === 'failed' && slot.state === 'connecting') {
      slot.lastError = error ?? slot.lastError;
      setSlotState(core, slot, 'failed', error);
      core.logger.warn('server failed to start', { server, code: error?.code, error: error?.message });
    } else if (to === 'degraded' || to === 'reconnecting') {
      if (error !== undefined) slot.lastError = error;
      setSlotState(core, slot, to, error);
    } else if (to === 'ready' && slot.state === 'degraded') {
      setSlotState(core, slot, 'ready');
    } else if (to === 'failed' && slot.state !== 'failed') {
      slot.lastError = error ?? slot.lastError;
      setSlotState(core, slot, 'failed', error);
      core.cache.invalidate(server);
      rebuildCatalogs(core, 'server-down', server);
    }
  });
  connection.on('reconnected', () => {
    if (core.closing || slot.starting !== undefined || slot.retired) return;
    core.stats.restarted(server);
    void refreshAfterReconnect(core, slot, connection);
  });
}

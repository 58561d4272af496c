/**
 * @module client/servers/start-server
 * Starting one server: connect, then list what it offers and send its resource subscriptions again,
 * all within the start's deadline (which runs from the spawn, not from the wait for a start slot).
 * One start at a time per slot; a failure is recorded (the connection's Supervisor retries it).
 */

import { ErrorCode, SwitchboardError, isSwitchboardError } from '../../errors.js';
import { rebuildCatalogs } from '../catalog/rebuild-catalogs.js';
import type { ClientCore } from '../client-core.js';
import { listAll } from './refresh-lists.js';
import { setSlotState, type ServerSlot } from './server-slot.js';

/** Starts `slot` (or joins the start under way); `announce` rebuilds the catalog once it is up. */
export function startSlot(core: ClientCore, slot: ServerSlot, announce: boolean): Promise<void> {
  slot.starting ??= startOnce(core, slot, announce).finally(() => (slot.starting = undefined));
  return slot.starting;
}

async function startOnce(core: ClientCore, slot: ServerSlot, announce: boolean): Promise<void> {
  const spec = slot.spec;
  const connection = slot.connection;
  if (connection === undefined) return;
  const started = Date.now();
  try {
    await connection.connect();
    const timing = connection.lastStart;
    const remaining = Math.max(1_000, (timing?.deadlineMs ?? spec.startupTimeoutMs) - (timing?.handshakeMs ?? Date.now() - started));
    // A retry or a replacement is a new session: it hears of subscribed resources only if asked again.
    await Promise.all([listAll(core, slot, connection, remaining), core.subscriptions.resend(spec.name, connection, remaining)]);
    if (slot.retired) return;
    const queuedMs = timing?.queuedMs ?? 0;
    slot.startTiming = { startMs: Date.now() - started - queuedMs, queuedMs };
    core.logger.info('server ready', { server: spec.name, startMs: slot.startTiming.startMs, queuedMs, tools: slot.tools.length });
    slot.lastError = undefined;
    setSlotState(core, slot, 'ready');
    if (announce) rebuildCatalogs(core, 'server-up', spec.name);
  } catch (error) {
    if (core.closing || slot.retired) return;
    const failure = isSwitchboardError(error) ? error : new SwitchboardError(ErrorCode.ServerStartFailed, String(error), { server: spec.name, operation: 'start', cause: error });
    slot.lastError = failure;
    setSlotState(core, slot, 'failed', failure);
    core.logger.warn('server failed to start', { server: spec.name, code: failure.code, error: failure.message });
    // Up but not listed (e.g. tools/list failed): the connection ends that session and its Supervisor
    // retries the start, as it does one that failed to connect.
    connection.rejectStart(failure);
  }
}

/**
 * @module client/routing/serving-connection
 * The connection a request for one server goes to: only while the server serves (see `serving.ts`);
 * otherwise the error says why it does not.
 */

import type { ServerConnection } from '../../connection/server-connection.js';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { ClientCore } from '../client-core.js';
import { isServing } from '../serving.js';

/** The connection of `server` while it serves; throws its last error (or why it is not up) otherwise. */
export function servingConnection(core: ClientCore, server: string): ServerConnection {
  const slot = core.slots.get(server);
  if (slot === undefined) throw new SwitchboardError(ErrorCode.ServerNotFound, `There is no server named "${server}".`, { server });
  if (slot.connection === undefined || !isServing(slot.state)) {
    throw slot.lastError ?? new SwitchboardError(ErrorCode.ServerDisconnected, `server "${server}" is not connected (${slot.state})`, { server, reason: `not connected (${slot.state})` });
  }
  return slot.connection;
}

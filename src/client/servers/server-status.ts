/**
 * @module client/servers/server-status
 * One server's state as `status()` and `tools --json` show it.
 */

import { withSafeIcons } from '../catalog/catalog-extras.js';
import type { ServerInfo } from '../../connection/mcp-types.js';
import type { ServerState } from '../../connection/server-state.js';
import type { ClientCore } from '../client-core.js';
import { isServing } from '../serving.js';
import type { ServerSlot } from './server-slot.js';

/** The state of one server, as `status()` and `tools --json` show it. */
export interface ServerStatus {
  name: string;
  state: ServerState;
  enabled: boolean;
  transport?: 'stdio' | 'http' | 'sse';
  protocolVersion?: string;
  serverInfo?: ServerInfo;
  toolCount: number;
  /** Successful restarts or reconnects. */
  restarts: number;
  /** Since when the server has been ready (ms since epoch). */
  readyAt?: number;
  pid?: number;
  /** The last start: ms from spawn (or connect) until ready, tools listed; and ms spent waiting for a start slot. */
  startMs?: number;
  queuedMs?: number;
  error?: { code: string; message: string; hint?: string; stderr?: string };
}

/** The status of `slot`; `countOf` tells how many of a server's tools the catalog offers. */
export function statusOf(slot: ServerSlot, countOf: (server: string) => number): ServerStatus {
  const connection = slot.connection;
  const error = slot.lastError;
  const stderr = error?.details.stderr;
  return {
    name: slot.spec.name,
    state: slot.state,
    enabled: slot.spec.enabled,
    ...(connection?.transportKind === undefined ? {} : { transport: connection.transportKind }),
    ...(connection?.protocolVersion === undefined ? {} : { protocolVersion: connection.protocolVersion }),
    ...(connection?.serverInfo === undefined ? {} : { serverInfo: withSafeIcons(connection.serverInfo) }),
    toolCount: isServing(slot.state) ? countOf(slot.spec.name) : 0,
    restarts: connection?.restarts ?? 0,
    // `readyAt` is since when it has been ready: a degraded server is not.
    ...(slot.state === 'ready' && connection?.readyAt !== undefined ? { readyAt: connection.readyAt } : {}),
    ...(connection?.pid === undefined ? {} : { pid: connection.pid }),
    ...(slot.startTiming ?? {}),
    ...(error === undefined || slot.state === 'ready'
      ? {}
      : {
          error: {
            code: error.code,
            message: error.message,
            ...(error.hint === undefined ? {} : { hint: error.hint }),
            ...(typeof stderr === 'string' && stderr !== '' ? { stderr } : {}),
          },
        }),
  };
}

/** The status of every server of `core`, in config order. */
export function statusesOf(core: ClientCore): ServerStatus[] {
  const tools = core.catalogs.tools;
  return [...core.slots.values()].map((slot) => statusOf(slot, (server) => tools.countOf(server)));
}

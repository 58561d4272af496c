/**
 * @module client/serving
 * Which server states count as serving: the one definition the whole client uses. A degraded server
 * (missed a health check) and a reconnecting one (a restart under way) still serve — their tools,
 * prompts, resources and templates stay listed and calls wait for them; only a failed or closed
 * server, or one still starting, does not.
 */

import type { ServerState } from '../connection/server-state.js';

/** True when a server in this state serves: its lists are offered and requests are routed to it. */
export function isServing(state: ServerState): boolean {
  return state === 'ready' || state === 'degraded' || state === 'reconnecting';
}

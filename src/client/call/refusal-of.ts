/**
 * @module client/call/refusal-of
 * What the stats record of a call refused before anything was sent: its error code, and its server
 * and tool where they are known (an unknown name has neither; a tool whose server is not up has its
 * server, and its tool when the last known list names it).
 */

import type { SwitchboardError } from '../../errors.js';
import type { CallRefusal } from '../../metrics/stats-collector.js';
import type { RoutedEntry } from '../catalog/routed-catalog.js';

/**
 * The refusal to count for `error`, about `tool` when the call was routed to one. Otherwise `owner`
 * (whose the name is, e.g. a tool of a server that is not up) names the tool, but only when the
 * refusal is about that same server: a name the caller addressed to another server is not its tool.
 */
export function refusalOf(error: SwitchboardError, tool?: RoutedEntry, owner?: RoutedEntry): CallRefusal {
  const known = tool ?? (owner !== undefined && owner.server === error.server ? owner : undefined);
  const server = known?.server ?? error.server;
  return { code: error.code, ...(server === undefined ? {} : { server }), ...(known === undefined ? {} : { tool: known.originalName }) };
}

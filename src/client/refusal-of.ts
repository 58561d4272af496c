/**
 * @module client/refusal-of
 * What the stats record of a call refused before anything was sent: its error code, and its server
 * and tool where they are known (an unknown name has neither; a tool whose server is not up has its
 * server).
 */

import type { SwitchboardError } from '../errors.js';
import type { CallRefusal } from '../metrics/stats-collector.js';
import type { CatalogTool } from './multi-server-client.js';

/** The refusal to count for `error`, about `tool` when the call was routed to one. */
export function refusalOf(error: SwitchboardError, tool?: CatalogTool): CallRefusal {
  const server = tool?.server ?? error.server;
  return { code: error.code, ...(server === undefined ? {} : { server }), ...(tool === undefined ? {} : { tool: tool.originalName }) };
}

/**
 * @module gateway/legacy-result-projection
 * A `tools/call` result shaped for a 2025-era session whose SDK server is not built (a dormant
 * session, see `legacy-session`): the SDK's own 2025-era projection (a text fallback for a non-object
 * structured result, the wrapping an advertised non-object schema asks for). Every 2025-era version
 * shares one wire codec in the SDK, so one server that never connects, shared by all sessions, projects
 * exactly as a session's own server would.
 */

import { Server, type CallToolResult } from '@modelcontextprotocol/server';
import { VERSION } from '../version.js';

let projector: Server | undefined;

/** `result` as a 2025-era session's server would send it for a tool advertising `outputSchema`. */
export function projectLegacyCallToolResult(result: CallToolResult, outputSchema: Readonly<Record<string, unknown>> | undefined): CallToolResult {
  projector ??= new Server({ name: 'mcp-switchboard', version: VERSION }, { capabilities: { tools: {} } });
  return projector.projectCallToolResult(result, outputSchema);
}

/**
 * @module gateway/gateway-tool-search
 * Tool search on `/mcp` and `/mcp/e/NAME`: with the setting in force on (an endpoint's `toolSearch`,
 * else the user's own, else the gateway's default or `auto` and the catalog large), `tools/list` answers `search_tools`, `call_tool` and the pinned tools instead of every
 * definition, and `tools/call` of `call_tool` becomes a call of the tool it names — so the call goes
 * the usual way (limits, tracker, progress) and audit and metrics record the real tool. Search and
 * calls see only what the caller's gate lets through, by the names it lists (their servers, the
 * endpoint's selection and renames, the tool rules). `list_changed` still
 * reaches clients: the catalog's notifications are untouched.
 */

import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { CALL_TOOL_NAME, isMetaToolName, SEARCH_TOOLS_NAME, ToolDiscovery } from '../client/search/discovery-tools.js';
import { resolveToolSearch, type ToolSearchSettings } from '../client/search/tool-search-mode.js';
import { isSwitchboardError } from '../errors.js';
import type { UserClient } from '../pool/index.js';
import type { ToolGate } from './access/tool-gate.js';
import { GatedCatalog } from './gated-catalog.js';
import { failureResult, toWireResult, toWireTool } from './wire-format.js';
import { wireToolsFor } from './wire-catalog.js';

/** What a `tools/call` becomes: an answer given here, or a call of a catalog tool. */
export type RoutedToolCall = { answer: CallToolResult } | { name: string; args: Record<string, unknown> };

const discoveries = new WeakMap<UserClient, Map<ToolGate | undefined, { key: string; discovery: ToolDiscovery }>>();

/**
 * The tool-search setting in force for `client`'s user behind `gate`: an endpoint's own mode (with the
 * user's pins and thresholds), else the user's setting, else the gateway's default; undefined: off.
 */
export function toolSearchSettingsOf(client: UserClient, gate?: ToolGate): ToolSearchSettings | undefined {
  const own = client.user.toolSearch;
  const modes = gate?.toolSearch;
  if (modes?.endpoint !== undefined) return { ...own, mode: modes.endpoint };
  if (own !== undefined) return own;
  return modes?.fallback === undefined ? undefined : { mode: modes.fallback };
}

/** The discovery of `client`'s user, as their setting is now; undefined when tool search is off. */
function discoveryOf(client: UserClient, gate?: ToolGate): ToolDiscovery | undefined {
  const settings = toolSearchSettingsOf(client, gate);
  if (settings === undefined || settings.mode === 'off') return undefined;
  const where = gate?.toolSearch.endpoint === undefined ? `users.${client.user.name}.toolSearch` : `endpoints.${gate.endpoint ?? ''}.toolSearch`;
  // Behind a gate, search and call_tool see only what it lets through (cached per gate and setting: one client serves several endpoints).
  const key = JSON.stringify(settings);
  const perGate = discoveries.get(client) ?? new Map<ToolGate | undefined, { key: string; discovery: ToolDiscovery }>();
  discoveries.set(client, perGate);
  const known = perGate.get(gate);
  if (known?.key === key) return known.discovery;
  const resolved = resolveToolSearch(settings, where);
  let discovery: ToolDiscovery;
  if (gate === undefined) discovery = new ToolDiscovery(client, resolved, () => true, () => client.client);
  else {
    const gated = new GatedCatalog(client, gate);
    discovery = new ToolDiscovery(gated, resolved, () => true, () => gated);
  }
  perGate.set(gate, { key, discovery });
  return discovery;
}

/** The `tools/list` answer for the user of `client`, to a downstream client that declared `clientCapabilities` (UI metadata only for MCP Apps hosts, see wire-catalog). */
export function listedTools(client: UserClient, gate: ToolGate | undefined, clientCapabilities: Record<string, unknown> | undefined): Tool[] {
  const discovery = discoveryOf(client, gate);
  if (discovery === undefined || !discovery.active) return wireToolsFor(gate?.list(client) ?? client.listTools(), clientCapabilities);
  const tools: Tool[] = discovery.definitions().map((definition) => toWireTool({ ...definition, server: '', originalName: definition.name }));
  tools.push(...wireToolsFor(discovery.pinned().filter((tool) => !isMetaToolName(tool.name)), clientCapabilities));
  return tools;
}

/** Routes a `tools/call` by `name` under the user's tool-search setting. */
export function routeToolCall(client: UserClient, name: string, args: Record<string, unknown>, gate?: ToolGate): RoutedToolCall {
  if (!isMetaToolName(name)) return { name, args };
  const discovery = discoveryOf(client, gate);
  // A catalog tool of that name wins while search is not in force.
  if (discovery === undefined || (!discovery.active && (gate?.list(client) ?? client.listTools()).some((tool) => tool.name === name))) return { name, args };
  try {
    if (name === SEARCH_TOOLS_NAME) return { answer: toWireResult(discovery.search(args).result) };
    if (name === CALL_TOOL_NAME) {
      const target = discovery.target(args);
      return { name: target.tool.name, args: target.arguments };
    }
  } catch (error) {
    if (isSwitchboardError(error)) return { answer: failureResult(error.message) };
    throw error;
  }
  return { name, args };
}

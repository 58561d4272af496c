/**
 * @module gateway/gateway-tool-search
 * Tool search on `/mcp`, per user: with the user's `toolSearch` setting on (or `auto` and the catalog
 * large), `tools/list` answers `search_tools`, `call_tool` and the pinned tools instead of every
 * definition, and `tools/call` of `call_tool` becomes a call of the tool it names — so the call goes
 * the usual way (limits, tracker, progress) and audit and metrics record the real tool. Search and
 * calls see only the user's own catalog (their servers, under their policy). `list_changed` still
 * reaches clients: the catalog's notifications are untouched.
 */

import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { CALL_TOOL_NAME, isMetaToolName, SEARCH_TOOLS_NAME, ToolDiscovery } from '../client/search/discovery-tools.js';
import { resolveToolSearch } from '../client/search/tool-search-mode.js';
import { isSwitchboardError } from '../errors.js';
import type { UserClient } from '../pool/index.js';
import type { CatalogTool } from '../client/multi-server-client.js';
import type { ToolGate } from './access/tool-gate.js';
import { failureResult, toWireResult, toWireTool } from './wire-format.js';
import { wireToolsFor } from './wire-catalog.js';

/** What a `tools/call` becomes: an answer given here, or a call of a catalog tool. */
export type RoutedToolCall = { answer: CallToolResult } | { name: string; args: Record<string, unknown> };

const discoveries = new WeakMap<UserClient, { key: string; discovery: ToolDiscovery }>();

/** The tools `gate` lets its caller see, by server and original name (endpoints may rename them). */
function allowedBy(client: UserClient, gate: ToolGate): (tool: CatalogTool) => boolean {
  return (tool) => gate.list(client).some((seen) => seen.server === tool.server && seen.originalName === tool.originalName);
}

/** The discovery of `client`'s user, as their setting is now; undefined when tool search is off. */
function discoveryOf(client: UserClient, gate?: ToolGate): ToolDiscovery | undefined {
  const settings = client.user.toolSearch;
  if (settings === undefined || settings.mode === 'off') return undefined;
  // Behind an endpoint's gate, search and call_tool see only what the gate lets through (not cached: one client serves several endpoints).
  if (gate !== undefined) return new ToolDiscovery(client, resolveToolSearch(settings, `users.${client.user.name}.toolSearch`), allowedBy(client, gate), () => client.client);
  const key = JSON.stringify(settings);
  const known = discoveries.get(client);
  if (known?.key === key) return known.discovery;
  const discovery = new ToolDiscovery(client, resolveToolSearch(settings, `users.${client.user.name}.toolSearch`), () => true, () => client.client);
  discoveries.set(client, { key, discovery });
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
  if (discovery === undefined || (!discovery.active && client.getTool(name) !== undefined)) return { name, args };
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

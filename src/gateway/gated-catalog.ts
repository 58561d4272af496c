/**
 * @module gateway/gated-catalog
 * A user's catalog as one {@link ToolGate} shows it (an endpoint's selection, renames and description
 * overrides, then the tool rules), in the shape tool search indexes: so `search_tools` behind an
 * endpoint finds the tools by the names and descriptions the endpoint lists, and `call_tool` names
 * them as the gate expects. Its version moves when the catalog or the access configuration does.
 */

import type { CatalogTool, ToolCallOptions } from '../client/multi-server-client.js';
import type { DiscoveryClient } from '../client/search/discovery-tools.js';
import type { ToolResult } from '../result/tool-result.js';
import type { UserClient } from '../pool/index.js';
import type { ToolGate } from './access/tool-gate.js';
import { unavailableTool } from './access/tool-gate.js';

/** The catalog of `client` through `gate`; see the module doc. */
export class GatedCatalog implements DiscoveryClient {
  readonly #client: UserClient;
  readonly #gate: ToolGate;
  #seen: { catalog: number; access: number; tools: CatalogTool[]; byName: Map<string, CatalogTool> } | undefined;
  #version = 0;

  constructor(client: UserClient, gate: ToolGate) {
    this.#client = client;
    this.#gate = gate;
  }

  get catalogVersion(): number {
    this.#current();
    return this.#version;
  }

  listTools(): CatalogTool[] {
    return [...this.#current().tools];
  }

  getTool(name: string): CatalogTool | undefined {
    return this.#current().byName.get(name);
  }

  /** Calls a listed tool by its listed name (the gateway routes calls itself; this serves the library's `ToolDiscovery.call`). */
  callTool(name: string, args?: Record<string, unknown>, options?: ToolCallOptions): Promise<ToolResult> {
    const listed = this.getTool(name);
    const upstream = listed === undefined ? undefined : this.#client.listTools().find((tool) => tool.server === listed.server && tool.originalName === listed.originalName);
    if (upstream === undefined) return Promise.reject(unavailableTool(name));
    return this.#client.callTool(upstream.name, args, options);
  }

  #current(): { tools: CatalogTool[]; byName: Map<string, CatalogTool> } {
    const catalog = this.#client.catalogVersion;
    const access = this.#gate.accessVersion;
    if (this.#seen?.catalog !== catalog || this.#seen.access !== access) {
      const tools = this.#gate.list(this.#client);
      this.#seen = { catalog, access, tools, byName: new Map(tools.map((tool) => [tool.name, tool])) };
      this.#version++;
    }
    return this.#seen;
  }
}

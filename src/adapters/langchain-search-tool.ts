/**
 * @module adapters/langchain-search-tool
 * `search_tools` and `call_tool` as LangChain tools, for a toolset with tool search on. They are
 * switchboard tools (the middleware tells them from the app's own), return `ToolMessage`s like the
 * others (the `ToolResult` as artifact), and turn bad arguments or an unknown name into an error
 * message the model reads.
 */

import type { CatalogTool } from '../client/multi-server-client.js';
import { SEARCH_TOOLS_NAME, type ToolDiscovery } from '../client/search/discovery-tools.js';
import type { CallOptions } from '../connection/server-connection.js';
import type { ToolResult } from '../result/tool-result.js';
import type { AdapterClient } from './adapter-client.js';
import { SwitchboardTool, type LangChainToolOptions } from './langchain-tool.js';

/** A meta-tool of progressive discovery as a LangChain tool. */
export class ToolSearchTool extends SwitchboardTool {
  readonly #discovery: ToolDiscovery;

  static override lc_name(): string {
    return 'ToolSearchTool';
  }

  /** `definition` is the meta-tool (`search_tools` or `call_tool`) in catalog shape. */
  constructor(client: AdapterClient, discovery: ToolDiscovery, definition: CatalogTool, options: LangChainToolOptions = {}) {
    super(client, definition, { ...options, schema: 'original' });
    this.#discovery = discovery;
  }

  protected override run(args: unknown, callOptions: CallOptions): Promise<ToolResult> {
    return this.name === SEARCH_TOOLS_NAME ? Promise.resolve(this.#discovery.search(args).result) : this.#discovery.call(args, callOptions);
  }
}

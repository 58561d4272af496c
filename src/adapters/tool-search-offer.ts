/**
 * @module adapters/tool-search-offer
 * What an adapter offers the model under a `toolSearch` option: every tool, or — when tool search is
 * on (or `auto` finds the catalog too large, or the provider's tool limit would be passed) — the
 * meta-tools `search_tools` and `call_tool`, the pinned tools, and (for adapters that can add tools
 * between model calls) the tools found so far. With tool search `off`, a catalog over the provider's
 * limit is a clear error instead of the provider's opaque 400.
 */

import type { CatalogTool } from '../client/multi-server-client.js';
import { isMetaToolName, ToolDiscovery } from '../client/search/discovery-tools.js';
import { resolveToolSearch, type ToolSearchOption } from '../client/search/tool-search-mode.js';
import { ErrorCode, SwitchboardError } from '../errors.js';
import type { AdapterClient } from './adapter-client.js';

/** The most tools the OpenAI APIs accept in one request. */
export const OPENAI_MAX_TOOLS = 128;

/** What to offer now. */
export interface ToolOffer {
  /** True when the meta-tools replace the catalog. */
  searching: boolean;
  /** The tools to define for the model (meta-tools first when searching). */
  tools: CatalogTool[];
}

/** The tool-search state of one adapter toolset. */
export class ToolSearchOffer {
  readonly discovery: ToolDiscovery;
  readonly #client: AdapterClient;
  readonly #allow: (tool: CatalogTool) => boolean;
  readonly #limit: { max: number; provider: string } | undefined;
  readonly #withFound: boolean;

  /**
   * `option` undefined means: off unless the provider `limit` would be passed. `withFound` offers the
   * tools found by searches as real tools (LangChain, AI SDK); OpenAI callers keep a fixed list.
   */
  constructor(client: AdapterClient, option: ToolSearchOption | undefined, options: { allow?: (tool: CatalogTool) => boolean; limit?: { max: number; provider: string }; withFound?: boolean } = {}) {
    this.#client = client;
    this.#allow = options.allow ?? (() => true);
    this.#limit = options.limit;
    this.#withFound = options.withFound ?? false;
    const settings = option === undefined ? resolveToolSearch({ mode: options.limit === undefined ? 'off' : 'auto', maxTools: options.limit?.max ?? 0, maxTokens: Number.MAX_SAFE_INTEGER }) : resolveToolSearch(option);
    this.discovery = new ToolDiscovery(client, settings, this.#allow);
  }

  /** The tools to offer for the catalog as it is now. Throws LimitExceeded when `off` cannot fit the provider. */
  current(): ToolOffer {
    const all = this.discovery.visibleTools();
    const limit = this.#limit;
    const over = limit !== undefined && all.length > limit.max;
    if (this.discovery.settings.mode === 'off') {
      if (over) throw tooManyTools(all.length, limit, 'toolSearch is off');
      return { searching: false, tools: all };
    }
    if (!over && !this.discovery.active) return { searching: false, tools: all };
    const offered = new Map<string, CatalogTool>();
    for (const tool of this.metaTools()) offered.set(tool.name, tool);
    for (const tool of this.discovery.pinned()) if (!offered.has(tool.name)) offered.set(tool.name, tool);
    if (this.#withFound) for (const tool of this.discovery.found()) if (!offered.has(tool.name)) offered.set(tool.name, tool);
    let tools = [...offered.values()];
    if (limit !== undefined && tools.length > limit.max) {
      if (offered.size - this.discovery.found().length > limit.max) throw tooManyTools(tools.length, limit, 'the pinned tools alone are too many');
      // Found tools past the limit stay reachable through call_tool.
      tools = tools.slice(0, limit.max);
    }
    return { searching: true, tools };
  }

  /** `search_tools` and `call_tool` as catalog-shaped tools (server ''), for the adapters' converters. */
  metaTools(): CatalogTool[] {
    return this.discovery.definitions().map((definition) => ({ name: definition.name, server: '', originalName: definition.name, description: definition.description, inputSchema: definition.inputSchema }));
  }

  /** True when a call by `name` is a meta-tool call (a catalog tool of that name wins while search is not in force). */
  isMetaCall(name: string): boolean {
    if (!isMetaToolName(name)) return false;
    return this.#client.getTool(name) === undefined || this.current().searching;
  }
}

function tooManyTools(count: number, limit: { max: number; provider: string }, why: string): SwitchboardError {
  return new SwitchboardError(
    ErrorCode.LimitExceeded,
    `${limit.provider} accepts at most ${limit.max} tools in one request, and ${count} would be sent (${why}). Turn tool search on (toolSearch: 'auto' or 'on') so the model gets search_tools and call_tool instead of every definition, or offer fewer tools (the toolset's filter, or include/exclude in the server config).`,
    { details: { tools: count, max: limit.max, retryable: false } },
  );
}

/**
 * @module adapters/langchain-toolset
 * The LangChain tools of a `MultiServerClient`, following its catalog: `tools` is rebuilt after every
 * `tools-changed` (a server came back, a `list_changed` added a tool), and `getTool` resolves any name
 * the client can route, including one given out before a rename. Hand `tools` to an agent built once,
 * or — to see changes inside a running agent — use `createSwitchboardMiddleware` with `createAgent`.
 * With `toolSearch` on, `tools` is `search_tools`, `call_tool`, the pinned tools and every tool a
 * search has found so far: through the middleware, found tools become real tools on the next model call.
 */

import type { CatalogTool } from '../client/multi-server-client.js';
import type { AdapterClient } from './adapter-client.js';
import { CatalogView, type ToolsChange } from './catalog-view.js';
import { SwitchboardTool, type LangChainToolOptions } from './langchain-tool.js';
import { ToolSearchTool } from './langchain-search-tool.js';
import { ToolSearchOffer } from './tool-search-offer.js';
import type { ToolSearchOption } from '../client/search/tool-search-mode.js';

/** Options of {@link LangChainToolset}. */
export interface LangChainToolsetOptions extends LangChainToolOptions {
  /** Only these tools. @default every tool */
  filter?: (tool: CatalogTool) => boolean;
  /** Progressive discovery (`'off'` | `'on'` | `'auto'` or settings; see `ToolSearchSettings`). @default 'off' */
  toolSearch?: ToolSearchOption;
}

/**
 * LangChain tools for every tool of a client, kept current.
 *
 * @example
 * ```ts
 * const toolset = createLangChainToolset(client);
 * const agent = createAgent({ model, tools: toolset.tools });   // a snapshot, fine for one run
 * toolset.onChange(() => rebuildAgent(toolset.tools));           // or follow changes
 * ```
 */
export class LangChainToolset {
  readonly #client: AdapterClient;
  readonly #options: LangChainToolsetOptions;
  readonly #view: CatalogView<Map<string, SwitchboardTool>>;
  #previous = new Map<string, SwitchboardTool>();
  // Every tool ever built, by name: a call to a tool whose server is down still reaches the client.
  readonly #known = new Map<string, SwitchboardTool>();
  readonly #search: ToolSearchOffer;
  #metaTools = new Map<string, ToolSearchTool>();

  constructor(client: AdapterClient, options: LangChainToolsetOptions = {}) {
    this.#client = client;
    this.#options = options;
    this.#search = new ToolSearchOffer(client, options.toolSearch, { ...(options.filter === undefined ? {} : { allow: options.filter }), withFound: true });
    this.#view = new CatalogView(client, (tools) => {
      const previous = this.#previous;
      const next = new Map<string, SwitchboardTool>();
      for (const tool of tools) {
        if (!(options.filter?.(tool) ?? true)) continue;
        // Keep the same object while a tool's definition is unchanged (agents may compare identities).
        const kept = previous.get(tool.name);
        next.set(tool.name, kept !== undefined && sameDefinition(kept, tool) ? kept : new SwitchboardTool(client, tool, options));
      }
      this.#previous = next;
      for (const [name, tool] of next) this.#known.set(name, tool);
      return next;
    });
  }

  /** The tools as the catalog is now. */
  get tools(): SwitchboardTool[] {
    const current = this.#view.current;
    const offer = this.#search.current();
    if (!offer.searching) return [...current.values()];
    return offer.tools.map((tool) => (tool.server === '' ? this.#metaTool(tool) : (current.get(tool.name) ?? this.toolFor(tool.name))));
  }

  /** True when `tools` offers search_tools and call_tool instead of every tool. */
  get searching(): boolean {
    return this.#search.current().searching;
  }

  /** The LangChain tool of a meta-tool; kept while its definition (which names the tool count) is unchanged. */
  #metaTool(definition: CatalogTool): ToolSearchTool {
    const kept = this.#metaTools.get(definition.name);
    if (kept !== undefined && kept.description === definition.description) return kept;
    const tool = new ToolSearchTool(this.#client, this.#search.discovery, definition, this.#options);
    this.#metaTools.set(definition.name, tool);
    return tool;
  }

  /** The version of the catalog `tools` was built from. */
  get catalogVersion(): number {
    void this.#view.current;
    return this.#view.version;
  }

  /** The tool for a name the client routes (current or given out before a rename), if any. */
  getTool(name: string): SwitchboardTool | undefined {
    const current = this.#view.current.get(name);
    if (current !== undefined) return current;
    const routed = this.#client.getTool(name);
    if (routed === undefined || !(this.#options.filter?.(routed) ?? true)) return undefined;
    return new SwitchboardTool(this.#client, { ...routed, name }, this.#options);
  }

  /**
   * A tool for any name, for running a call the model made: the current tool, else the last one known
   * under that name (its server may be down: the call then tells the model so, and works again once
   * the server is back), else one that lets the client say there is no such tool.
   */
  toolFor(name: string): SwitchboardTool {
    if (this.#search.isMetaCall(name)) {
      const definition = this.#search.metaTools().find((meta) => meta.name === name);
      if (definition !== undefined) return this.#metaTool(definition);
    }
    const tool = this.getTool(name) ?? this.#known.get(name);
    if (tool !== undefined) return tool;
    return new SwitchboardTool(this.#client, { name, server: '', originalName: name, inputSchema: { type: 'object' } }, this.#options);
  }

  /** Calls `listener` after each catalog change; returns the unsubscribe function. */
  onChange(listener: (change: ToolsChange) => void): () => void {
    return this.#view.onChange(listener);
  }

  /** Stops following the client's events. Idempotent; the tools keep working. */
  close(): void {
    this.#view.close();
  }
}

function sameDefinition(tool: SwitchboardTool, catalogTool: CatalogTool): boolean {
  return tool.metadata.server === catalogTool.server && tool.metadata.originalName === catalogTool.originalName && tool.description === (catalogTool.description ?? catalogTool.name) && tool.sourceSchema === catalogTool.inputSchema;
}

/** Creates a {@link LangChainToolset}. */
export function createLangChainToolset(client: AdapterClient, options: LangChainToolsetOptions = {}): LangChainToolset {
  return new LangChainToolset(client, options);
}

/** LangChain tools for the client's catalog as it is now (a snapshot; see {@link LangChainToolset}). */
export function createLangChainTools(client: AdapterClient, options: LangChainToolsetOptions = {}): SwitchboardTool[] {
  return client.listTools().filter((tool) => options.filter?.(tool) ?? true).map((tool) => new SwitchboardTool(client, tool, options));
}

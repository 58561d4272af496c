/**
 * @module adapters/ai-sdk-toolset
 * AI SDK tools (`dynamicTool` + `jsonSchema`) for a `MultiServerClient`. Each tool calls
 * `client.callTool` by exposed name at call time (tools survive restarts and list changes), passes the
 * AI SDK's abort signal, returns the normalized `ToolResult` as output, and maps it for the model with
 * `toModelOutput` (images as images). A call that cannot run throws, which the AI SDK reports to the
 * model as a tool error. `AiSdkToolset.live` is a tool set whose keys follow the catalog, read again
 * at every step of `generateText` / `streamText`. With `toolSearch` on, `live` also holds `search_tools`
 * and `call_tool`, and `prepareStep` makes only those, the pinned tools and the tools found so far
 * active at each step (the AI SDK's `activeTools`), so found tools are offered from the next step on.
 */

import { dynamicTool, jsonSchema, type Tool, type ToolSet } from 'ai';
import type { CatalogTool } from '../client/multi-server-client.js';
import type { CallOptions } from '../connection/call-options.js';
import type { AdapterClient } from './adapter-client.js';
import { toAiSdkModelOutput, type AiSdkAudioMode } from './ai-sdk-output.js';
import { isToolResult } from './result-parts.js';
import { CatalogView, type ToolsChange } from './catalog-view.js';
import { toProviderSchema } from './provider-schema.js';
import { ToolSearchOffer } from './tool-search-offer.js';
import { SEARCH_TOOLS_NAME } from '../client/search/discovery-tools.js';
import type { ToolSearchOption } from '../client/search/tool-search-mode.js';

/** Options of the AI SDK tools. */
export interface AiSdkToolOptions {
  /** `'provider-safe'` (see `toProviderSchema`) or the server's `'original'` schema. @default 'provider-safe' */
  schema?: 'provider-safe' | 'original';
  /** Deadline of each call. @default the server's `callTimeout` */
  timeoutMs?: number;
  /** Only these tools. @default every tool */
  filter?: (tool: CatalogTool) => boolean;
  /** How audio results are sent: `'file-data'` parts, or `'describe'`d in text. @default 'describe' */
  audio?: AiSdkAudioMode;
  /** {@link AiSdkToolset} only: progressive discovery (`'off'` | `'on'` | `'auto'` or settings). @default 'off' */
  toolSearch?: ToolSearchOption;
}

/** One AI SDK tool for a catalog tool. */
export function createAiSdkTool(client: AdapterClient, tool: CatalogTool, options: AiSdkToolOptions = {}): Tool {
  const schema = options.schema === 'original' ? tool.inputSchema : toProviderSchema(tool.inputSchema).parameters;
  return dynamicTool({
    ...(tool.description === undefined ? {} : { description: tool.description }),
    ...(tool.title === undefined ? {} : { title: tool.title }),
    // Our client validates against the server's own schema; the AI SDK need not validate again.
    inputSchema: jsonSchema(schema),
    execute: async (input, { abortSignal }) => {
      const callOptions: CallOptions = {
        ...(abortSignal === undefined ? {} : { signal: abortSignal }),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      };
      return client.callTool(tool.name, isRecord(input) ? input : {}, callOptions);
    },
    toModelOutput: ({ output }) => (isToolResult(output) ? toAiSdkModelOutput(output, options.audio === undefined ? {} : { audio: options.audio }) : { type: 'json', value: null }),
  });
}

/** AI SDK tools for the client's catalog as it is now (a snapshot; see {@link AiSdkToolset}). */
export function createAiSdkTools(client: AdapterClient, options: AiSdkToolOptions = {}): ToolSet {
  const tools: ToolSet = {};
  for (const tool of client.listTools()) if (options.filter?.(tool) ?? true) tools[tool.name] = createAiSdkTool(client, tool, options);
  return tools;
}

/**
 * AI SDK tools for every tool of a client, following its catalog.
 *
 * @example
 * ```ts
 * const toolset = createAiSdkToolset(client);
 * const { text } = await generateText({ model, tools: toolset.live, stopWhen: stepCountIs(5), prompt });
 * ```
 */
export class AiSdkToolset {
  readonly #view: CatalogView<ToolSet>;
  readonly #known = new Map<string, Tool>();
  readonly #search: ToolSearchOffer;
  #live: ToolSet | undefined;

  constructor(client: AdapterClient, options: AiSdkToolOptions = {}) {
    this.#search = new ToolSearchOffer(client, options.toolSearch, { ...(options.filter === undefined ? {} : { allow: options.filter }), withFound: true });
    this.#view = new CatalogView(client, (catalog) => {
      const tools: ToolSet = {};
      // The meta-tools are in the set whenever search may be used; `activeTools` decides what is offered.
      if (this.#search.discovery.settings.mode !== 'off') for (const meta of this.#search.metaTools()) tools[meta.name] = this.#metaTool(meta, options);
      for (const tool of catalog) {
        if (!(options.filter?.(tool) ?? true)) continue;
        const built = createAiSdkTool(client, tool, options);
        tools[tool.name] = built;
        this.#known.set(tool.name, built);
      }
      return tools;
    });
  }

  /** True when the model is offered search_tools and call_tool instead of every tool. */
  get searching(): boolean {
    return this.#search.current().searching;
  }

  /**
   * The names to offer at this step: undefined (every tool) while search is not in force, else the
   * meta-tools, the pinned tools and the tools found so far. Pass as `activeTools`, or use {@link prepareStep}.
   */
  activeTools(): string[] | undefined {
    const offer = this.#search.current();
    return offer.searching ? offer.tools.map((tool) => tool.name) : undefined;
  }

  /** A `prepareStep` for `generateText` / `streamText` that sets `activeTools` at every step. */
  readonly prepareStep = (): { activeTools?: string[] } => {
    const active = this.activeTools();
    return active === undefined ? {} : { activeTools: active };
  };

  #metaTool(meta: CatalogTool, options: AiSdkToolOptions): Tool {
    const discovery = this.#search.discovery;
    return dynamicTool({
      description: meta.description ?? meta.name,
      inputSchema: jsonSchema(meta.inputSchema),
      execute: async (input, { abortSignal }) => {
        if (meta.name === SEARCH_TOOLS_NAME) return discovery.search(input).result;
        const callOptions: CallOptions = { ...(abortSignal === undefined ? {} : { signal: abortSignal }), ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }) };
        return discovery.call(input, callOptions);
      },
      toModelOutput: ({ output }) => (isToolResult(output) ? toAiSdkModelOutput(output, options.audio === undefined ? {} : { audio: options.audio }) : { type: 'json', value: null }),
    });
  }

  /** The tools as the catalog is now (a new object after each change). */
  get tools(): ToolSet {
    return this.#view.current;
  }

  /**
   * A tool set whose keys are the catalog's at the moment they are read: `generateText` reads them at
   * every step, so a tool added by `list_changed` is offered on the next step. A name the model calls
   * that is no longer listed (its server is down) still runs, and the client's error tells the model.
   */
  get live(): ToolSet {
    this.#live ??= new Proxy<ToolSet>(
      {},
      {
        ownKeys: () => Object.keys(this.#view.current),
        getOwnPropertyDescriptor: (_target, key) => {
          const tool = typeof key === 'string' ? this.#view.current[key] : undefined;
          return tool === undefined ? undefined : { value: tool, enumerable: true, configurable: true, writable: false };
        },
        has: (_target, key) => typeof key === 'string' && (key in this.#view.current || this.#known.has(key)),
        get: (_target, key) => (typeof key === 'string' ? (this.#view.current[key] ?? this.#known.get(key)) : undefined),
      },
    );
    return this.#live;
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

/** Creates an {@link AiSdkToolset}. */
export function createAiSdkToolset(client: AdapterClient, options: AiSdkToolOptions = {}): AiSdkToolset {
  return new AiSdkToolset(client, options);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

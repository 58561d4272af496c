/**
 * @module client/search/discovery-tools
 * The two meta-tools of progressive discovery and what they do, shared by the adapters and the
 * gateway: `search_tools` (a request in words → names, descriptions and input schemas of the best
 * matches) and `call_tool` (a name found so + its arguments → that tool's result). `allow` limits both
 * to the tools the caller may see (the gateway's per-user permissions); the tools found are remembered
 * so an adapter can offer them as real tools on the next model call.
 */

import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { ToolResult } from '../../result/tool-result.js';
import type { CatalogTool, ToolCallOptions } from '../multi-server-client.js';
import { catalogIndex, type SearchableCatalog } from './catalog-search.js';
import { pinnedTools, toolSearchActive, type ResolvedToolSearch } from './tool-search-mode.js';

/** Name of the search meta-tool. */
export const SEARCH_TOOLS_NAME = 'search_tools';
/** Name of the call meta-tool. */
export const CALL_TOOL_NAME = 'call_tool';
/** Most results one `search_tools` call may ask for. */
export const MAX_SEARCH_RESULTS = 20;

/** A tool definition as MCP lists it. */
export interface MetaToolDefinition {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required: string[]; additionalProperties?: boolean };
}

/** One tool found: what the model needs to call it through `call_tool`. */
export interface FoundTool {
  name: string;
  description?: string;
  inputSchema: CatalogTool['inputSchema'];
}

/** What {@link ToolDiscovery} needs of a client. */
export interface DiscoveryClient extends SearchableCatalog {
  getTool(name: string): CatalogTool | undefined;
  callTool(name: string, args?: Record<string, unknown>, options?: ToolCallOptions): Promise<ToolResult>;
}

/** The definitions of `search_tools` and `call_tool` for a catalog of `count` tools. */
export function metaToolDefinitions(count: number): [MetaToolDefinition, MetaToolDefinition] {
  return [
    {
      name: SEARCH_TOOLS_NAME,
      description: `Find tools for a task among ${count} available tools that are not listed here. Describe what you want to do in a few words (e.g. "take a screenshot of the page"); returns the best matches with their names, descriptions and input schemas. Then run one with ${CALL_TOOL_NAME}.`,
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'What you want to do, in words.' },
          limit: { type: 'integer', minimum: 1, maximum: MAX_SEARCH_RESULTS, description: 'How many tools to return (default 5).' },
        },
        required: ['query'],
      },
    },
    {
      name: CALL_TOOL_NAME,
      description: `Run a tool found with ${SEARCH_TOOLS_NAME}: its exact name, and arguments that match its input schema.`,
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: `The tool's name, as ${SEARCH_TOOLS_NAME} returned it.` },
          arguments: { type: 'object', description: "The tool's arguments.", additionalProperties: true },
        },
        required: ['name'],
      },
    },
  ];
}

/** True for the name of a meta-tool. */
export function isMetaToolName(name: string): boolean {
  return name === SEARCH_TOOLS_NAME || name === CALL_TOOL_NAME;
}

/** Search and call on behalf of a model; see the module doc. */
export class ToolDiscovery {
  readonly #client: DiscoveryClient;
  readonly #settings: ResolvedToolSearch;
  readonly #allow: (tool: CatalogTool) => boolean;
  readonly #found = new Set<string>();
  readonly #indexed: () => SearchableCatalog;
  #decided: { version: number; active: boolean } | undefined;

  /**
   * `indexed` is the catalog the search index is kept for (default `client`); a client that swaps its
   * underlying catalog (the gateway's per-user client) passes the current one, so versions never mix.
   */
  constructor(client: DiscoveryClient, settings: ResolvedToolSearch, allow: (tool: CatalogTool) => boolean = () => true, indexed: () => SearchableCatalog = () => client) {
    this.#client = client;
    this.#settings = settings;
    this.#allow = allow;
    this.#indexed = indexed;
  }

  /** The settings in force. */
  get settings(): ResolvedToolSearch {
    return this.#settings;
  }

  /** The tools the caller may see, as the catalog is now. */
  visibleTools(): CatalogTool[] {
    return this.#client.listTools().filter(this.#allow);
  }

  /** True when the meta-tools replace the definitions (decided again after each catalog change). */
  get active(): boolean {
    const version = this.#client.catalogVersion;
    if (this.#decided?.version !== version) this.#decided = { version, active: toolSearchActive(this.#settings, this.visibleTools()) };
    return this.#decided.active;
  }

  /** The pinned tools the caller may see. */
  pinned(): CatalogTool[] {
    return pinnedTools(this.#settings, this.visibleTools());
  }

  /** Tools returned by searches so far that still exist and may be seen, in the order found. */
  found(): CatalogTool[] {
    const tools: CatalogTool[] = [];
    for (const name of this.#found) {
      const tool = this.#client.getTool(name);
      if (tool !== undefined && this.#allow(tool)) tools.push(tool);
    }
    return tools;
  }

  /** The definitions of the meta-tools for the visible catalog. */
  definitions(): [MetaToolDefinition, MetaToolDefinition] {
    return metaToolDefinitions(this.visibleTools().length);
  }

  /** Runs `search_tools`. Bad arguments throw an InvalidArgument error the model can read. */
  search(args: unknown): { tools: FoundTool[]; result: ToolResult } {
    const input = record(args, SEARCH_TOOLS_NAME);
    if (typeof input.query !== 'string' || input.query.trim() === '') throw badArguments(SEARCH_TOOLS_NAME, '"query" must be a non-empty string saying what you want to do');
    const limit = input.limit === undefined ? this.#settings.resultLimit : input.limit;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_RESULTS) throw badArguments(SEARCH_TOOLS_NAME, `"limit" must be a whole number from 1 to ${MAX_SEARCH_RESULTS}`);
    const matches = catalogIndex(this.#indexed()).search(input.query, { limit, filter: (tool) => this.#allow(tool) && !isMetaToolName(tool.name) });
    const tools = matches.map(({ tool }) => ({ name: tool.name, ...(tool.description === undefined ? {} : { description: tool.description }), inputSchema: tool.inputSchema }));
    for (const tool of tools) this.#found.add(tool.name);
    const text = tools.length === 0 ? `No tool matches "${input.query}". Try other words.` : JSON.stringify({ tools });
    return { tools, result: { isError: false, content: [{ type: 'text', text }], structuredContent: { tools } } };
  }

  /** The tool `call_tool` names and its arguments; throws ToolNotFound / InvalidArgument for the model. */
  target(args: unknown): { tool: CatalogTool; arguments: Record<string, unknown> } {
    const input = record(args, CALL_TOOL_NAME);
    if (typeof input.name !== 'string' || input.name === '') throw badArguments(CALL_TOOL_NAME, `"name" must be the name of a tool ${SEARCH_TOOLS_NAME} returned`);
    const toolArguments = input.arguments === undefined ? {} : input.arguments;
    if (!isRecord(toolArguments)) throw badArguments(CALL_TOOL_NAME, '"arguments" must be an object');
    const tool = isMetaToolName(input.name) ? undefined : this.#client.getTool(input.name);
    if (tool === undefined || !this.#allow(tool)) {
      throw new SwitchboardError(ErrorCode.ToolNotFound, `There is no tool "${input.name}". Find the right name with ${SEARCH_TOOLS_NAME}, then call it with ${CALL_TOOL_NAME}.`, { details: { tool: input.name, retryable: false } });
    }
    return { tool, arguments: toolArguments };
  }

  /** Runs `call_tool`: the named tool, with its arguments, through the client. */
  async call(args: unknown, options: ToolCallOptions = {}): Promise<ToolResult> {
    const { tool, arguments: toolArguments } = this.target(args);
    return this.#client.callTool(tool.name, toolArguments, options);
  }
}

function record(args: unknown, tool: string): Record<string, unknown> {
  if (args === undefined) return {};
  if (!isRecord(args)) throw badArguments(tool, 'the arguments must be a JSON object');
  return args;
}

function badArguments(tool: string, problem: string): SwitchboardError {
  return new SwitchboardError(ErrorCode.InvalidArgument, `${tool} was not run: ${problem}.`, { details: { tool, retryable: false } });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * @module client/search/tool-search-mode
 * When an agent is given `search_tools` and `call_tool` instead of every definition: `off`, `on`, or
 * `auto` — on once the catalog has more than `maxTools` tools or its definitions are estimated at more
 * than `maxTokens` tokens (MCP's client best practices suggest progressive discovery once definitions
 * pass a few percent of the context window). Pinned tools are always offered as themselves.
 */

import { ErrorCode, SwitchboardError } from '../../errors.js';
import { globMatcher } from '../catalog/glob.js';
import type { CatalogTool } from '../multi-server-client.js';

/** The tool-search modes. */
export const TOOL_SEARCH_MODES = ['off', 'on', 'auto'] as const;

/** `off`: every definition; `on`: the meta-tools (and pinned tools); `auto`: on above the thresholds. */
export type ToolSearchMode = (typeof TOOL_SEARCH_MODES)[number];

/** Tool search, configured. */
export interface ToolSearchSettings {
  /** @default 'auto' */
  mode?: ToolSearchMode;
  /** `auto`: on above this many tools. @default 40 */
  maxTools?: number;
  /** `auto`: on above this many estimated definition tokens. @default 8000 */
  maxTokens?: number;
  /** Tools always offered as themselves: exposed names or globs (`fs__read_*`). @default none */
  pinned?: readonly string[];
  /** Results of one `search_tools` call when the model does not ask for a number. @default 5 */
  resultLimit?: number;
}

/** A mode alone, or settings. */
export type ToolSearchOption = ToolSearchMode | ToolSearchSettings;

/** Default `auto` threshold in tools. */
export const DEFAULT_TOOL_SEARCH_MAX_TOOLS = 40;
/** Default `auto` threshold in estimated tokens (about 4 % of a 200k context). */
export const DEFAULT_TOOL_SEARCH_MAX_TOKENS = 8_000;
/** Default number of results of one `search_tools` call. */
export const DEFAULT_TOOL_SEARCH_RESULTS = 5;

/** Settings with every default filled in. */
export interface ResolvedToolSearch {
  mode: ToolSearchMode;
  maxTools: number;
  maxTokens: number;
  pinned: readonly string[];
  resultLimit: number;
}

/** Checks and completes a tool-search option; `where` names it in errors (e.g. `toolSearch`). */
export function resolveToolSearch(option: ToolSearchOption | undefined, where = 'toolSearch', defaults: Partial<ResolvedToolSearch> = {}): ResolvedToolSearch {
  const settings: ToolSearchSettings = typeof option === 'string' ? { mode: option } : (option ?? {});
  if (typeof settings !== 'object' || settings === null) throw invalid(where, `must be one of ${TOOL_SEARCH_MODES.join(', ')} or an object, got ${typeof settings}`);
  const mode = settings.mode ?? defaults.mode ?? 'auto';
  if (!TOOL_SEARCH_MODES.includes(mode)) throw invalid(`${where}.mode`, `must be one of ${TOOL_SEARCH_MODES.join(', ')}, got ${JSON.stringify(mode)}`);
  const count = (value: number | undefined, fallback: number, field: string): number => {
    if (value === undefined) return fallback;
    if (!Number.isInteger(value) || value < 0) throw invalid(`${where}.${field}`, `must be a whole number of at least 0, got ${String(value)}`);
    return value;
  };
  const pinned = settings.pinned ?? defaults.pinned ?? [];
  if (!Array.isArray(pinned) || pinned.some((name) => typeof name !== 'string')) throw invalid(`${where}.pinned`, 'must be a list of tool names or globs');
  const resultLimit = count(settings.resultLimit, defaults.resultLimit ?? DEFAULT_TOOL_SEARCH_RESULTS, 'resultLimit');
  if (resultLimit < 1) throw invalid(`${where}.resultLimit`, 'must be at least 1');
  return {
    mode,
    maxTools: count(settings.maxTools, defaults.maxTools ?? DEFAULT_TOOL_SEARCH_MAX_TOOLS, 'maxTools'),
    maxTokens: count(settings.maxTokens, defaults.maxTokens ?? DEFAULT_TOOL_SEARCH_MAX_TOKENS, 'maxTokens'),
    pinned,
    resultLimit,
  };
}

/** True when tool search is on for this catalog. */
export function toolSearchActive(settings: ResolvedToolSearch, tools: readonly CatalogTool[]): boolean {
  if (settings.mode !== 'auto') return settings.mode === 'on';
  return tools.length > settings.maxTools || estimateDefinitionTokens(tools) > settings.maxTokens;
}

/** The pinned tools of a catalog, in catalog order. */
export function pinnedTools(settings: ResolvedToolSearch, tools: readonly CatalogTool[]): CatalogTool[] {
  if (settings.pinned.length === 0) return [];
  const matches = globMatcher(settings.pinned);
  return tools.filter((tool) => matches(tool.name));
}

/**
 * Estimated tokens of tool definitions as a model receives them (name, description, input schema as
 * JSON): about four characters a token, the usual rule of thumb for English and JSON with BPE tokenizers.
 */
export function estimateDefinitionTokens(tools: ReadonlyArray<Pick<CatalogTool, 'name' | 'description' | 'inputSchema'>>): number {
  let characters = 0;
  for (const tool of tools) characters += JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.inputSchema }).length;
  return Math.ceil(characters / 4);
}

function invalid(where: string, problem: string): SwitchboardError {
  return new SwitchboardError(ErrorCode.InvalidArgument, `${where} ${problem}.`, { details: { field: where } });
}

/**
 * @module client/search/tool-index
 * A BM25+ full-text index of catalog tools (minisearch: incremental add/discard/replace, no
 * dependencies). {@link ToolIndex.sync} brings it to a new catalog by touching only the tools that
 * were added, removed or changed, so following `tools-changed` costs what changed, not the catalog.
 * Names weigh most, then descriptions, server names and parameters; prefix and small fuzzy matches
 * count for less than exact ones.
 */

import MiniSearch from 'minisearch';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { CatalogTool } from '../multi-server-client.js';
import { queryTermsOf, splitWords, toTerm } from './search-terms.js';
import { sameDocument, toToolDocument, TOOL_FIELDS, type ToolDocument, type ToolField } from './tool-document.js';

/** Options of a search. */
export interface ToolSearchOptions {
  /** At most this many tools. @default 10 */
  limit?: number;
  /** Only tools of these servers. @default every server */
  servers?: readonly string[];
  /** Only tools this accepts (e.g. the caller's permissions). @default every tool */
  filter?: (tool: CatalogTool) => boolean;
}

/** A tool found, with its relevance (higher is better; comparable within one search only). */
export interface ToolMatch {
  tool: CatalogTool;
  score: number;
}

/** What one {@link ToolIndex.sync} changed. */
export interface IndexSyncResult {
  added: number;
  removed: number;
  replaced: number;
}

/** Default number of results. */
export const DEFAULT_SEARCH_LIMIT = 10;

/** Field weights: a word in a tool's name says more than one in its parameters. */
export const DEFAULT_FIELD_BOOSTS: Readonly<Record<ToolField, number>> = { name: 3, description: 1.2, params: 0.5, server: 1 };

/** A search index over catalog tools; see the module doc. */
export class ToolIndex {
  readonly #search: MiniSearch<ToolDocument>;
  readonly #tools = new Map<string, CatalogTool>();
  readonly #boosts: Record<string, number>;

  constructor(options: { boosts?: Partial<Record<ToolField, number>> } = {}) {
    this.#boosts = { ...DEFAULT_FIELD_BOOSTS, ...options.boosts };
    this.#search = new MiniSearch<ToolDocument>({
      fields: [...TOOL_FIELDS],
      tokenize: splitWords,
      processTerm: (term) => toTerm(term) ?? null,
      autoVacuum: { minDirtCount: 20, minDirtFactor: 0.1, batchSize: 1000, batchWait: 10 },
    });
  }

  /** Number of tools indexed. */
  get size(): number {
    return this.#tools.size;
  }

  /** Makes the index hold exactly `tools` (by exposed name), re-indexing only what changed. */
  sync(tools: readonly CatalogTool[]): IndexSyncResult {
    const result: IndexSyncResult = { added: 0, removed: 0, replaced: 0 };
    const seen = new Set<string>();
    for (const tool of tools) {
      seen.add(tool.name);
      const known = this.#tools.get(tool.name);
      if (known === undefined) {
        this.#search.add(toToolDocument(tool));
        result.added++;
      } else if (!sameDocument(known, tool)) {
        this.#search.replace(toToolDocument(tool));
        result.replaced++;
      }
      this.#tools.set(tool.name, tool);
    }
    for (const name of [...this.#tools.keys()]) {
      if (seen.has(name)) continue;
      this.#search.discard(name);
      this.#tools.delete(name);
      result.removed++;
    }
    return result;
  }

  /** The tools best matching `query`, best first. An empty query (or one of filler words only) finds nothing. */
  search(query: string, options: ToolSearchOptions = {}): ToolMatch[] {
    const limit = checkSearchLimit(options.limit);
    if (typeof query !== 'string') throw new SwitchboardError(ErrorCode.InvalidArgument, `The search query must be a string, got ${typeof query}.`);
    const servers = options.servers === undefined ? undefined : new Set(options.servers);
    const accept = options.filter;
    const wanted = servers === undefined && accept === undefined ? undefined : (tool: CatalogTool | undefined): boolean => tool !== undefined && (servers?.has(tool.server) ?? true) && (accept?.(tool) ?? true);
    const search = (fuzzy: boolean) =>
      this.#search.search(query, {
        boost: this.#boosts,
        tokenize: splitWords,
        processTerm: queryTermsOf,
        // Prefixes for the word being typed; typo tolerance only when exact words find nothing.
        prefix: (term, index, terms) => index === terms.length - 1 && term.length >= 3,
        fuzzy: fuzzy ? (term) => (term.length >= 5 ? 0.2 : false) : false,
        weights: { prefix: 0.5, fuzzy: 0.3 },
        ...(wanted === undefined ? {} : { filter: (hit) => wanted(this.#tools.get(String(hit.id))) }),
      });
    let hits = search(false);
    if (hits.length === 0) hits = search(true);
    const matches: ToolMatch[] = [];
    for (const hit of hits) {
      const tool = this.#tools.get(String(hit.id));
      if (tool !== undefined) matches.push({ tool, score: hit.score });
      if (matches.length === limit) break;
    }
    return matches;
  }
}

/** The limit of a search, checked (default {@link DEFAULT_SEARCH_LIMIT}). */
export function checkSearchLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_SEARCH_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new SwitchboardError(ErrorCode.InvalidArgument, `The search limit must be a whole number of at least 1, got ${String(limit)}.`);
  return limit;
}

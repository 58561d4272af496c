/**
 * @module client/search/hybrid-tool-search
 * Optional hybrid tool search: the BM25 scores of {@link catalogIndex} fused with the cosine similarity of embeddings from an OpenAI-compatible
 * `/v1/embeddings` endpoint the user configures (relative score fusion: each min-max normalized over
 * the candidates, weighted `vectorWeight` : 1 − `vectorWeight`, as Weaviate's hybrid search does), so a request whose words appear in no definition
 * ("remember that Alice works at Acme") can still find its tool. Tool vectors are fetched once per
 * tool definition and kept; after a catalog change only new or changed tools are embedded. When the
 * endpoint fails, the search answers with BM25 alone (saying so) and leaves the endpoint alone for
 * `retryAfterMs` — a search never fails because embeddings do.
 */

import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { CatalogTool } from '../multi-server-client.js';
import { catalogIndex, type SearchableCatalog } from './catalog-search.js';
import { fetchEmbeddings, type EmbeddingsEndpointOptions } from './embeddings-endpoint.js';
import { checkSearchLimit, type ToolSearchOptions } from './tool-index.js';
import { toToolDocument } from './tool-document.js';

/** Options of {@link HybridToolSearch}. */
export interface HybridToolSearchOptions extends EmbeddingsEndpointOptions {
  /** Weight of the embeddings (0–1); BM25 gets the rest. @default 0.75 */
  vectorWeight?: number;
  /** After a failure, BM25 alone for this long. @default 30000 */
  retryAfterMs?: number;
  /** The clock of `retryAfterMs` (injected in tests). @default Date.now */
  now?: () => number;
}

/** A hybrid search's answer: the tools (best first), how they were ranked, and why not hybrid. */
export interface HybridSearchResult {
  tools: CatalogTool[];
  mode: 'hybrid' | 'bm25';
  /** Set when the embeddings were not used: what went wrong with the endpoint. */
  problem?: string;
}

/** Default weight of the embeddings against BM25 (Weaviate's default `alpha`). */
export const DEFAULT_VECTOR_WEIGHT = 0.75;
/** BM25 hits and nearest vectors fused, at least. */
const BM25_CANDIDATES = 50;

/** Hybrid search over one catalog; see the module doc. */
export class HybridToolSearch {
  readonly #catalog: SearchableCatalog;
  readonly #options: HybridToolSearchOptions;
  readonly #vectors = new Map<string, { text: string; vector: number[] }>();
  #failedAt: number | undefined;
  #problem: string | undefined;

  constructor(catalog: SearchableCatalog, options: HybridToolSearchOptions) {
    const weight = options.vectorWeight;
    if (weight !== undefined && !(weight >= 0 && weight <= 1)) throw new SwitchboardError(ErrorCode.InvalidArgument, `embeddings.vectorWeight must be a number from 0 to 1, got ${String(weight)}.`, { details: { field: 'vectorWeight' } });
    if (!/^https?:\/\/./i.test(options.baseUrl)) throw new SwitchboardError(ErrorCode.InvalidArgument, `embeddings.baseUrl must be an http:// or https:// URL such as http://127.0.0.1:11434/v1, got ${JSON.stringify(options.baseUrl.slice(0, 200))}.`, { details: { field: 'baseUrl' } });
    this.#catalog = catalog;
    this.#options = options;
  }

  /** The tools best matching `query`, best first. */
  async search(query: string, options: ToolSearchOptions = {}): Promise<HybridSearchResult> {
    const limit = checkSearchLimit(options.limit);
    const bm25 = catalogIndex(this.#catalog).search(query, { ...options, limit: Math.max(limit, BM25_CANDIDATES) });
    const now = (this.#options.now ?? Date.now)();
    if (this.#failedAt !== undefined && now - this.#failedAt < (this.#options.retryAfterMs ?? 30_000)) return this.#fallback(bm25, limit, this.#problem);
    let ranked: Array<{ tool: CatalogTool; similarity: number }>;
    try {
      ranked = await this.#byVector(query, options);
    } catch (error) {
      this.#failedAt = now;
      this.#problem = error instanceof Error ? error.message : String(error);
      return this.#fallback(bm25, limit, this.#problem);
    }
    this.#failedAt = undefined;
    const weight = this.#options.vectorWeight ?? DEFAULT_VECTOR_WEIGHT;
    const scores = new Map<string, { tool: CatalogTool; score: number }>();
    const fuse = (entries: Array<{ tool: CatalogTool; value: number }>, share: number): void => {
      const values = entries.map((entry) => entry.value);
      const low = Math.min(...values);
      const span = Math.max(...values) - low;
      for (const { tool, value } of entries) {
        const entry = scores.get(tool.name) ?? { tool, score: 0 };
        entry.score += share * (span === 0 ? 1 : (value - low) / span);
        scores.set(tool.name, entry);
      }
    };
    const candidates = Math.max(limit, BM25_CANDIDATES);
    fuse(bm25.map((match) => ({ tool: match.tool, value: match.score })), 1 - weight);
    fuse(ranked.slice(0, candidates).map((match) => ({ tool: match.tool, value: match.similarity })), weight);
    const tools = [...scores.values()].sort((a, b) => b.score - a.score).slice(0, limit).map((entry) => entry.tool);
    return { tools, mode: 'hybrid' };
  }

  #fallback(bm25: Array<{ tool: CatalogTool }>, limit: number, problem: string | undefined): HybridSearchResult {
    return { tools: bm25.slice(0, limit).map((match) => match.tool), mode: 'bm25', ...(problem === undefined ? {} : { problem }) };
  }

  /** Every searchable tool by similarity to `query`; embeds the tools not embedded yet first. */
  async #byVector(query: string, options: ToolSearchOptions): Promise<Array<{ tool: CatalogTool; similarity: number }>> {
    const servers = options.servers === undefined ? undefined : new Set(options.servers);
    const tools = this.#catalog.listTools().filter((tool) => (servers?.has(tool.server) ?? true) && (options.filter?.(tool) ?? true));
    const missing: Array<{ name: string; text: string }> = [];
    for (const tool of tools) {
      const text = documentText(tool);
      if (this.#vectors.get(tool.name)?.text !== text) missing.push({ name: tool.name, text });
    }
    const [queryVector, ...fetched] = await fetchEmbeddings(this.#options, [query, ...missing.map((entry) => entry.text)]);
    missing.forEach((entry, index) => this.#vectors.set(entry.name, { text: entry.text, vector: fetched[index] ?? [] }));
    const ranked: Array<{ tool: CatalogTool; similarity: number }> = [];
    for (const tool of tools) {
      const known = this.#vectors.get(tool.name);
      if (known !== undefined && queryVector !== undefined) ranked.push({ tool, similarity: cosine(queryVector, known.vector) });
    }
    return ranked.sort((a, b) => b.similarity - a.similarity);
  }
}

/** What is embedded of a tool: its name (split), description and parameters. */
function documentText(tool: CatalogTool): string {
  const document = toToolDocument(tool);
  return `${document.name}\n${document.description}\n${document.params}`;
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    const x = a[index] ?? 0;
    const y = b[index] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

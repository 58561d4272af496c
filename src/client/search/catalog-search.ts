/**
 * @module client/search/catalog-search
 * `searchTools` of a client: one {@link ToolIndex} per catalog, brought up to date on the first search
 * after each catalog version (so every `tools-changed` is folded in, incrementally, and nothing runs
 * while nobody searches). Kept beside the client in a WeakMap: it goes when the client goes.
 */

import type { CatalogTool } from '../multi-server-client.js';
import { ToolIndex, type ToolSearchOptions } from './tool-index.js';

/** What a searchable catalog offers: its tools and a version that moves when they change. */
export interface SearchableCatalog {
  listTools(): CatalogTool[];
  readonly catalogVersion: number;
}

interface Tracked {
  index: ToolIndex;
  version: number;
}

const indexes = new WeakMap<SearchableCatalog, Tracked>();

/** The index of `catalog`, synced to its current version. */
export function catalogIndex(catalog: SearchableCatalog): ToolIndex {
  let tracked = indexes.get(catalog);
  if (tracked === undefined) {
    tracked = { index: new ToolIndex(), version: Number.NaN };
    indexes.set(catalog, tracked);
  }
  const version = catalog.catalogVersion;
  if (tracked.version !== version) {
    tracked.index.sync(catalog.listTools());
    tracked.version = version;
  }
  return tracked.index;
}

/** The tools of `catalog` best matching `query`, best first. */
export function searchCatalog(catalog: SearchableCatalog, query: string, options: ToolSearchOptions = {}): CatalogTool[] {
  return catalogIndex(catalog)
    .search(query, options)
    .map((match) => match.tool);
}

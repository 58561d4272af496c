/**
 * @module gateway/access/endpoint-tools
 * What a named endpoint lists: the caller's catalog narrowed by the endpoint's selection (server and
 * tool globs, annotation filter), named by its naming strategy and renames, with its description
 * overrides — each listed tool keeping the catalog tool it routes to. Pure.
 */

import type { CatalogTool } from '../../client/multi-server-client.js';
import { annotationsPass, serverGlobMatches, toolGlobMatches, type EndpointInput } from '../../registry/index.js';

/** A tool as an endpoint lists it, and the catalog tool a call to it goes to. */
export interface ExposedTool {
  /** As listed (name and description may differ from the upstream's). */
  tool: CatalogTool;
  /** The catalog tool (`upstream.name` is what the user's client routes). */
  upstream: CatalogTool;
}

/** The keys a rename or description override may use for a tool, most specific first. */
function keysOf(tool: CatalogTool): string[] {
  return [`${tool.server}/${tool.originalName}`, tool.name, tool.originalName];
}

function lookup(table: Readonly<Record<string, string>> | undefined, tool: CatalogTool): string | undefined {
  if (table === undefined) return undefined;
  for (const key of keysOf(tool)) if (Object.hasOwn(table, key)) return table[key];
  return undefined;
}

/**
 * The tools of `catalog` an endpoint lists, by listed name. Without an endpoint, the catalog as it
 * is. A name (renamed or by strategy) that another selected tool has in the catalog, or that an
 * earlier tool took, is not used: that tool keeps its catalog name (unique), so no tool is lost.
 */
export function endpointTools(definition: EndpointInput | undefined, catalog: readonly CatalogTool[]): Map<string, ExposedTool> {
  const exposed = new Map<string, ExposedTool>();
  if (definition === undefined) {
    for (const tool of catalog) exposed.set(tool.name, { tool, upstream: tool });
    return exposed;
  }
  const selected = catalog.filter((tool) => serverGlobMatches(definition.servers, tool.server) && toolGlobMatches(definition.tools, tool) && annotationsPass(definition.annotations, tool));
  const originals = new Map<string, number>();
  for (const tool of selected) originals.set(tool.originalName, (originals.get(tool.originalName) ?? 0) + 1);
  // Catalog names are unique: each tool may always fall back to its own, so none is ever lost.
  const reserved = new Set(selected.map((tool) => tool.name));
  for (const upstream of selected) {
    const naming = definition.naming ?? 'on-conflict';
    const named = naming === 'prefix' ? `${upstream.server}_${upstream.originalName}` : naming === 'none' && originals.get(upstream.originalName) === 1 ? upstream.originalName : upstream.name;
    let name = lookup(definition.renames, upstream) ?? named;
    if (name !== upstream.name && (reserved.has(name) || exposed.has(name))) name = upstream.name;
    const description = lookup(definition.descriptions, upstream) ?? upstream.description;
    exposed.set(name, { tool: { ...upstream, name, ...(description === undefined ? {} : { description }) }, upstream });
  }
  return exposed;
}

/**
 * @module client/catalog/tool-sources
 * What the tool names are decided from: every enabled server, up or not. A server that is up gives
 * its live list; one that is not gives its last known list (from this process or the catalog cache),
 * which names its tools but offers none; one whose tools were never known is pending, and under
 * `on-conflict` keeps every name prefixed until it is known — a bare name handed out now could
 * otherwise be claimed by it later.
 */

import type { ServerSpec } from '../../config/server-spec.js';
import type { ToolDefinition } from '../../connection/mcp-types.js';
import type { NameSource } from './name-catalog.js';

/** What naming needs of one server entry. */
export interface ToolSourceEntry {
  spec: ServerSpec;
  /** True when the server is up (its tools are offered). */
  live: boolean;
  tools: ToolDefinition[];
  /** The last known list, when there is one. */
  knownTools: ToolDefinition[] | undefined;
}

/** The naming sources of the entries (config order) and the servers whose tools are unknown. */
export function toolSources(entries: Iterable<ToolSourceEntry>): { sources: Array<NameSource<ToolDefinition>>; pending: string[] } {
  const sources: Array<NameSource<ToolDefinition>> = [];
  const pending: string[] = [];
  for (const entry of entries) {
    const spec = entry.spec;
    if (!spec.enabled) continue;
    const items = entry.live ? entry.tools : entry.knownTools;
    if (items === undefined) {
      pending.push(spec.name);
      continue;
    }
    const source: NameSource<ToolDefinition> = { server: spec.name, prefix: spec.prefix ?? spec.name, items };
    if (!entry.live) source.offline = true;
    if (spec.include !== undefined) source.include = spec.include;
    if (spec.exclude !== undefined) source.exclude = spec.exclude;
    sources.push(source);
  }
  return { sources, pending };
}

const UNKNOWN_SCHEMA = { type: 'object' } as const;

/** Tool definitions standing for names read from the catalog cache (only their names are used). */
export function knownToolsFromNames(names: readonly string[]): ToolDefinition[] {
  return names.map((name) => ({ name, inputSchema: UNKNOWN_SCHEMA }));
}

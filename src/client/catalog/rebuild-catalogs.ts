/**
 * @module client/catalog/rebuild-catalogs
 * Rebuilding the combined catalogs after a server came up, went down or re-listed: tool names are
 * decided from every enabled server (up or not, so names never depend on which ones are up), prompts
 * and resources from the serving ones; what changed is announced as events.
 */

import type { SwitchboardConfig } from '../../config/server-spec.js';
import type { PromptDefinition, ResourceDefinition, ToolDefinition } from '../../connection/mcp-types.js';
import type { ServerState } from '../../connection/server-state.js';
import type { Logger } from '../../logger.js';
import type { ClientEventSink, ToolsChangedReason } from '../multi-server-client-events.js';
import { isServing } from '../serving.js';
import { toCatalogPrompt, toCatalogTool } from './catalog-items.js';
import type { ClientCatalogs } from './client-catalogs.js';
import { buildResourceCatalog } from './resource-catalog.js';
import { RoutedCatalog } from './routed-catalog.js';
import { toolSources, type ToolSourceEntry } from './tool-sources.js';

/** What the catalogs need of one configured server. */
export interface CatalogServer extends Omit<ToolSourceEntry, 'live'> {
  state: ServerState;
  prompts: PromptDefinition[];
  resources: ResourceDefinition[];
}

/** What a rebuild reads and writes. */
export interface CatalogHost {
  readonly catalogs: ClientCatalogs;
  readonly config: SwitchboardConfig;
  readonly events: ClientEventSink;
  readonly logger: Logger;
  readonly slots: ReadonlyMap<string, CatalogServer>;
}

/** Which catalogs to rebuild. */
export type CatalogKind = 'tools' | 'prompts' | 'resources' | 'all';

/**
 * Rebuilds the catalogs from the servers; emits what changed when `announce`. A change at run time
 * that breaks `naming: none` keeps the previous catalog rather than none (the first build throws).
 */
export function rebuildCatalogs(host: CatalogHost, reason: ToolsChangedReason, server: string | undefined, announce = true, kind: CatalogKind = 'all'): void {
  if (!announce) {
    rebuild(host, reason, server, announce, kind);
    return;
  }
  try {
    rebuild(host, reason, server, announce, kind);
  } catch (error) {
    host.logger.error('the tool catalog could not be rebuilt; keeping the previous one', { server, error: error instanceof Error ? error.message : String(error) });
  }
}

function rebuild(host: CatalogHost, reason: ToolsChangedReason, server: string | undefined, announce: boolean, kind: CatalogKind): void {
  const { catalogs, config, events } = host;
  const serving = [...host.slots.values()].filter((slot) => isServing(slot.state));
  if (kind === 'all' || kind === 'tools') {
    const previous = catalogs.tools;
    const { sources, pending } = toolSources([...host.slots.values()].map((slot) => ({ spec: slot.spec, live: isServing(slot.state), tools: slot.tools, knownTools: slot.knownTools })));
    catalogs.tools = RoutedCatalog.build(sources, config.naming, toCatalogTool, previous, 'tool', { pending });
    // Remember names whose server went down, so calling one says so instead of "no such tool".
    if (serving.length < config.servers.filter((spec) => spec.enabled).length) {
      for (const tool of previous.entries) {
        const state = host.slots.get(tool.server)?.state;
        if (state !== undefined && catalogs.tools.route(tool.name) === undefined && !isServing(state)) catalogs.unavailable.set(tool.name, tool.server);
      }
    }
    if (catalogs.unavailable.size > 0) for (const tool of catalogs.tools.entries) catalogs.unavailable.delete(tool.name);
    if (announce && events.listenerCount('tools-changed') > 0) {
      events.emit('tools-changed', { ...catalogs.tools.diffFrom(previous), version: catalogs.tools.version, reason, ...(server === undefined ? {} : { server }) });
    }
  }
  if (kind === 'all' || kind === 'prompts') {
    const previous = catalogs.prompts;
    catalogs.prompts = RoutedCatalog.build(
      serving.map((slot) => ({ server: slot.spec.name, prefix: slot.spec.prefix ?? slot.spec.name, items: slot.prompts })),
      config.naming === 'none' ? 'on-conflict' : config.naming,
      toCatalogPrompt,
      previous,
      'prompt',
    );
    if (announce && kind === 'prompts' && events.listenerCount('prompts-changed') > 0) events.emit('prompts-changed', { ...catalogs.prompts.diffFrom(previous), version: catalogs.prompts.version, ...(server === undefined ? {} : { server }) });
  }
  if (kind === 'all' || kind === 'resources') {
    const built = buildResourceCatalog(serving.map((slot) => ({ name: slot.spec.name, resources: slot.resources })));
    catalogs.resources = built.resources;
    catalogs.resourceCollisions = built.collisions;
    if (announce && kind === 'resources' && server !== undefined) events.emit('resources-changed', { server });
  }
}

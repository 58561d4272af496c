/**
 * @module client/catalog/client-catalogs
 * The client's current catalogs: tools and prompts (routed by exposed name), resources (by URI), and
 * the names of tools whose server went down, kept to explain a failed call.
 */

import type { NamingStrategy } from '../../config/server-spec.js';
import type { CatalogPrompt, CatalogResource, CatalogTool } from './catalog-items.js';
import type { NameReport } from './name-catalog.js';
import { RoutedCatalog } from './routed-catalog.js';

/** The catalogs of one client; replaced whole on each rebuild. */
export interface ClientCatalogs {
  tools: RoutedCatalog<CatalogTool>;
  prompts: RoutedCatalog<CatalogPrompt>;
  resources: Map<string, CatalogResource>;
  resourceCollisions: Array<{ uri: string; servers: string[] }>;
  /** Exposed names of tools whose server is down, to explain failed calls. */
  readonly unavailable: Map<string, string>;
}

/** The catalogs before any server has been listed. */
export function emptyCatalogs(naming: NamingStrategy): ClientCatalogs {
  return { tools: RoutedCatalog.empty(naming), prompts: RoutedCatalog.empty(naming), resources: new Map(), resourceCollisions: [], unavailable: new Map() };
}

/** Every rename and collision of a client's catalogs. */
export interface CatalogReport {
  tools: NameReport;
  prompts: NameReport;
  resources: { collisions: Array<{ uri: string; servers: string[] }> };
}

/** The report of `catalogs` now. */
export function catalogReportOf(catalogs: ClientCatalogs): CatalogReport {
  return { tools: catalogs.tools.report, prompts: catalogs.prompts.report, resources: { collisions: catalogs.resourceCollisions } };
}

/** Whose a tool name is, even while its server is not up (see {@link MultiServerClient.ownerOf}). */
export function toolOwnerOf(catalogs: ClientCatalogs, name: string): { server: string; originalName: string; offered: boolean } | undefined {
  const owner = catalogs.tools.owner(name);
  return owner === undefined ? undefined : { server: owner.server, originalName: owner.originalName, offered: !owner.offline };
}

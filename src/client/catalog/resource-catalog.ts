/**
 * @module client/catalog/resource-catalog
 * The combined resource list: URIs stay as the servers name them, and only a URI that two servers
 * share is rewritten (`switchboard://<server>/<uri>`) so each stays addressable.
 */

import { catalogExtras } from './catalog-extras.js';
import type { ResourceDefinition } from '../../connection/mcp-types.js';
import type { CatalogResource } from './catalog-items.js';

/** What the resource list needs of one serving server. */
export interface ResourceSource {
  name: string;
  resources: readonly ResourceDefinition[];
}

/** The combined resources by URI, and the URIs several servers share. */
export interface ResourceCatalog {
  resources: Map<string, CatalogResource>;
  collisions: Array<{ uri: string; servers: string[] }>;
}

/** Builds the combined resource list of the serving servers (in config order). */
export function buildResourceCatalog(sources: readonly ResourceSource[]): ResourceCatalog {
  const serversByUri = new Map<string, string[]>();
  for (const source of sources) {
    for (const resource of source.resources) serversByUri.set(resource.uri, [...(serversByUri.get(resource.uri) ?? []), source.name]);
  }
  const resources = new Map<string, CatalogResource>();
  const collisions: Array<{ uri: string; servers: string[] }> = [];
  for (const [uri, servers] of serversByUri) if (new Set(servers).size > 1) collisions.push({ uri, servers: [...new Set(servers)] });
  for (const source of sources) {
    for (const resource of source.resources) {
      const clash = new Set(serversByUri.get(resource.uri)).size > 1;
      const uri = clash ? `switchboard://${encodeURIComponent(source.name)}/${encodeURIComponent(resource.uri)}` : resource.uri;
      resources.set(uri, {
        uri,
        server: source.name,
        originalUri: resource.uri,
        name: resource.name,
        ...(resource.title === undefined ? {} : { title: resource.title }),
        ...(resource.description === undefined ? {} : { description: resource.description }),
        ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }),
        ...(resource.size === undefined ? {} : { size: resource.size }),
        ...catalogExtras(resource),
      });
    }
  }
  return { resources, collisions };
}

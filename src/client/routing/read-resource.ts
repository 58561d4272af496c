/**
 * @module client/routing/read-resource
 * `resources/read` through the client: the owning server (see resource-owner), and the read kept by
 * its cache hints (see cached-reads); resource templates with only their safe icons.
 */

import type { ReadResourceResult } from '../../connection/mcp-types.js';
import type { CallOptions } from '../../connection/server-connection.js';
import { withSafeIcons } from '../catalog/catalog-extras.js';
import type { CatalogResourceTemplate } from '../catalog/catalog-items.js';
import type { ClientCore } from '../client-core.js';
import { isServing } from '../serving.js';
import { resourceOwner } from './resource-owner.js';
import { servingConnection } from './serving-connection.js';

/** Reads `uri` from its server (see {@link MultiServerClient.readResource}). */
export async function readResource(core: ClientCore, uri: string, options: CallOptions & { server?: string }): Promise<ReadResourceResult> {
  const resource = await resourceOwner(core, uri, options.server);
  const connection = servingConnection(core, resource.server);
  const spec = core.slots.get(resource.server)?.spec;
  const read = (): Promise<ReadResourceResult> => connection.readResource(resource.uri, options);
  return spec === undefined ? read() : core.reads.read(spec, resource.uri, read);
}

/** Every resource template of every serving server, with its server. */
export function resourceTemplates(core: ClientCore): CatalogResourceTemplate[] {
  return [...core.slots.values()].filter((slot) => isServing(slot.state)).flatMap((slot) => slot.resourceTemplates.map((template) => ({ ...withSafeIcons(template), server: slot.spec.name })));
}

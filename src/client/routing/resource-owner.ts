/**
 * @module client/routing/resource-owner
 * Which server a resource URI belongs to: a listed resource names its server; a URI that matches the
 * resource templates of exactly one serving server is that server's (an unlisted `ui://` one is the
 * server's whose tool names it); otherwise the caller must say.
 */

import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { ClientCore } from '../client-core.js';
import { uiResourceServers } from '../mcp-apps.js';
import { isServing } from '../serving.js';
import type { SubscribedResource } from './resource-subscriptions.js';

/** The server of a resource URI and the URI as that server names it. */
export async function resourceOwner(core: ClientCore, uri: string, server: string | undefined): Promise<SubscribedResource> {
  const listed = core.catalogs.resources.get(uri);
  if (listed !== undefined && (server === undefined || server === listed.server)) return { server: listed.server, uri: listed.originalUri };
  if (server !== undefined) return { server, uri };
  // An unlisted ui:// resource belongs to the server whose tool names it (MCP Apps).
  const owners = uiResourceServers(core.catalogs.tools.entries, uri);
  const candidates = owners.length > 0 ? owners : await serversForUri(core, uri);
  if (candidates.length === 1 && candidates[0] !== undefined) return { server: candidates[0], uri };
  throw new SwitchboardError(
    ErrorCode.InvalidArgument,
    candidates.length === 0
      ? `No server offers a resource at "${uri}".`
      : `Several servers may serve "${uri}" (${candidates.join(', ')}); pass \`server\` to choose one.`,
    { operation: 'resources/read', details: { uri, candidates } },
  );
}

/** The listed resource `uri` names, or the one a subscription holds, as its server names it. */
export function subscribedResourceOf(core: ClientCore, uri: string, server: string | undefined): SubscribedResource | undefined {
  const listed = core.catalogs.resources.get(uri);
  return listed !== undefined && (server === undefined || server === listed.server) ? { server: listed.server, uri: listed.originalUri } : core.subscriptions.find(uri, server);
}

async function serversForUri(core: ClientCore, uri: string): Promise<string[]> {
  const { UriTemplate } = await import('@modelcontextprotocol/client');
  const serving = [...core.slots.values()].filter((slot) => isServing(slot.state));
  const matching = serving.filter((slot) => slot.resourceTemplates.some((template) => new UriTemplate(template.uriTemplate).match(uri) !== null));
  if (matching.length > 0) return matching.map((slot) => slot.spec.name);
  const withResources = serving.filter((slot) => slot.connection?.capabilities?.resources !== undefined);
  return withResources.length === 1 ? withResources.map((slot) => slot.spec.name) : [];
}

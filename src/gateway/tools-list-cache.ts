/**
 * @module gateway/tools-list-cache
 * The `tools/list` result of a user's client as JSON text, made once per catalog version and per kind
 * of downstream client (an MCP Apps host sees UI metadata, any other client does not; see
 * wire-catalog). A 1,003-tool listing spent most of its gateway time re-mapping and re-serializing the
 * same catalog on every request (issue 17); the text is kept until the catalog changes, and goes with
 * the client (a registry edit that replaces it starts over).
 */

import type { MultiServerClient } from '../client/multi-server-client.js';
import { declaresUi } from '../client/mcp-apps.js';
import type { UserClient } from '../pool/index.js';
import { wireToolsFor } from './wire-catalog.js';

/** The cached texts of one client: by catalog version, for hosts with and without MCP Apps. */
interface CachedLists {
  version: number;
  withUi?: string;
  plain?: string;
}

const cache = new WeakMap<MultiServerClient, CachedLists>();

/** `{"tools":[…]}` of `client` for a downstream client that declared `capabilities`. */
export function toolsListJson(client: UserClient, capabilities: Record<string, unknown> | undefined): string {
  const underlying = client.client;
  const version = client.catalogVersion;
  let lists = cache.get(underlying);
  if (lists === undefined || lists.version !== version) {
    lists = { version };
    cache.set(underlying, lists);
  }
  const ui = declaresUi(capabilities);
  const cached = ui ? lists.withUi : lists.plain;
  if (cached !== undefined) return cached;
  const text = JSON.stringify({ tools: wireToolsFor(client.listTools(), capabilities) });
  if (ui) lists.withUi = text;
  else lists.plain = text;
  return text;
}

/**
 * @module gateway/routes/search-tools-query
 * `GET /api/tools?q=…&limit=…&server=…`: the query parameters checked (a bad `limit` is a 400 that
 * says what is allowed) and handed to the client's own `searchTools`, the index agents search.
 */

import type { CatalogTool, MultiServerClient } from '../../client/multi-server-client.js';
import { ErrorCode, SwitchboardError } from '../../errors.js';

/** Default and largest number of matches of one `GET /api/tools?q=`. */
export const API_SEARCH_LIMIT = { default: 50, max: 1000 } as const;

/** The matches of `query` in `client`'s catalog, best first. */
export function searchToolsFor(client: MultiServerClient, query: string, limit: string | undefined, server: string | undefined): CatalogTool[] {
  const count = limit === undefined ? API_SEARCH_LIMIT.default : Number(limit);
  if (!Number.isInteger(count) || count < 1 || count > API_SEARCH_LIMIT.max) {
    throw new SwitchboardError(ErrorCode.InvalidArgument, `limit must be a whole number from 1 to ${API_SEARCH_LIMIT.max}, got "${limit ?? ''}"`);
  }
  return client.searchTools(query, { limit: count, ...(server === undefined || server === '' ? {} : { servers: [server] }) });
}

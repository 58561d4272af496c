/**
 * @module dashboard/state/use-ranked-search
 * The Tools page's search through the gateway's tool index (`GET /api/tools?q=`, the ranking agents
 * get from `search_tools`): the names of the best matches, best first, for the query as typed (a
 * short pause after the last keystroke, earlier requests cancelled). Catalogs over
 * {@link RANKED_SEARCH_MAX_TOOLS} are filtered in the page instead: indexing them would hold the
 * gateway for seconds.
 */

import { useEffect, useState } from 'preact/hooks';
import type { ApiClient } from '../api/api-client.js';

/** Largest catalog searched through the index. */
export const RANKED_SEARCH_MAX_TOOLS = 10_000;
/** Pause after the last keystroke before searching. */
export const SEARCH_DEBOUNCE_MS = 150;

/** The ranked names for `query`, or undefined while there is none (no query, too large a catalog, not answered yet, failed). */
export function useRankedSearch(api: ApiClient, query: string, server: string, catalogSize: number, version: number | undefined): string[] | undefined {
  const [ranked, setRanked] = useState<{ key: string; names: string[] } | undefined>(undefined);
  const key = `${query}\u0000${server}\u0000${String(version)}`;
  const usable = query.trim() !== '' && catalogSize > 0 && catalogSize <= RANKED_SEARCH_MAX_TOOLS;
  useEffect(() => {
    if (!usable) return undefined;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      api.searchTools(query, { server, signal: abort.signal }).then(
        (answer) => setRanked({ key, names: answer.tools.map((tool) => tool.name) }),
        () => setRanked(undefined),
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [api, key, usable]);
  return usable && ranked?.key === key ? ranked.names : undefined;
}

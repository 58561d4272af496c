/**
 * @module dashboard/pages/tools-page
 * Every tool of every server: search, filter by server, pick one to read and try. The search, the
 * filter, the page and the chosen tool live in the URL, so a link opens the same view. The list is
 * paged ({@link TOOLS_PAGE_SIZE} rows at a time): drawing 100,000 rows at once took 20 s. A search
 * is ranked by the gateway's tool index (what agents' `search_tools` finds), best first; until its
 * answer arrives (and for catalogs too large to index) the words are matched in names and descriptions.
 */

import { useMemo } from 'preact/hooks';
import { Problem, StaleNotice } from '../components/problem.js';
import { Pager } from '../components/pager.js';
import { ToolDetail } from '../components/tool-detail.js';
import { ToolLink } from '../components/tool-link.js';
import { formatCount } from '../model/format.js';
import { pageOf, TOOLS_PAGE_SIZE } from '../model/page-of.js';
import { useSession } from '../state/session.js';
import { useLoader } from '../state/use-loader.js';
import { hrefOf, replaceRoute } from '../state/use-route.js';
import { useRankedSearch } from '../state/use-ranked-search.js';
import { ToolSearchSetting } from '../components/tool-search-setting.js';

export function ToolsPage({ params }: { params: URLSearchParams }) {
  const { api } = useSession();
  const tools = useLoader(() => api.tools(), ['tools-changed', 'servers-changed']);
  const query = params.get('q') ?? '';
  const server = params.get('server') ?? '';
  const selected = params.get('tool') ?? '';
  const requestedPage = Number(params.get('page') ?? '1');
  const all = useMemo(() => tools.data?.tools ?? [], [tools.data]);
  const servers = useMemo(() => [...new Set(all.map((tool) => tool.server))].sort(), [all]);
  const needle = query.trim().toLowerCase();
  const ranked = useRankedSearch(api, query, server, all.length, tools.data?.version);
  const byName = useMemo(() => new Map(all.map((tool) => [tool.name, tool])), [all]);
  const shown = useMemo(
    () =>
      ranked !== undefined
        ? ranked.flatMap((name) => byName.get(name) ?? [])
        : all.filter(
        (tool) =>
          (server === '' || tool.server === server) &&
          (needle === '' || [tool.name, tool.title ?? '', tool.description ?? '', tool.server].some((text) => text.toLowerCase().includes(needle))),
      ),
    [all, server, needle, ranked, byName],
  );
  const current = pageOf(shown, requestedPage, TOOLS_PAGE_SIZE);
  const page = current.page === 1 ? '' : String(current.page);
  const chosen = useMemo(() => all.find((tool) => tool.name === selected), [all, selected]);
  // A new search or filter starts on the first page.
  const set = (change: Record<string, string>): void => replaceRoute('tools', { q: query, server, tool: selected, page: '', ...change });

  return (
    <div class="split">
      <section class="tool-list" aria-label="Tool list">
        <div class="filters">
          <div class="field">
            <label for="tool-search">Search tools</label>
            <input id="tool-search" type="search" value={query} placeholder="what do you want to do?" onInput={(event) => set({ q: event.currentTarget.value })} />
          </div>
          <div class="field">
            <label for="tool-server">Server</label>
            <select id="tool-server" value={server} onChange={(event) => set({ server: event.currentTarget.value })}>
              <option value="">All servers</option>
              {(server !== '' && !servers.includes(server) ? [...servers, server] : servers).map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </div>
        </div>
        <ToolSearchSetting />
        <p class="muted small" role="status">
          {tools.data === undefined
            ? tools.loading
              ? 'Loading tools…'
              : ''
            : `${shown.length} of ${formatCount(all.length, 'tool')}${current.pages > 1 ? `, showing ${current.start}–${current.end}` : ''}`}
        </p>
        <Problem error={tools.data === undefined ? tools.error : undefined} />
        <StaleNotice error={tools.error} shown={tools.data !== undefined} />
        <ul class="tools">
          {current.items.map((tool) => (
            <li key={tool.name}>
              <ToolLink tool={tool} href={hrefOf('tools', { q: query, server, page, tool: tool.name })} current={tool.name === selected} />
            </li>
          ))}
        </ul>
        <Pager label="Tool list pages" page={current.page} pages={current.pages} onPage={(next) => set({ page: next === 1 ? '' : String(next) })} />
      </section>
      <div class="tool-pane">
        {chosen !== undefined ? (
          <ToolDetail tool={chosen} />
        ) : (
          <p class="empty">{selected !== '' && tools.data !== undefined ? `No tool named ${selected} (its server may be down).` : 'Pick a tool to see its schema and try it.'}</p>
        )}
      </div>
    </div>
  );
}

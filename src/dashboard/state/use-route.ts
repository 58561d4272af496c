/**
 * @module dashboard/state/use-route
 * Pages live in the URL fragment (`#/tools?server=x`), since the gateway serves the dashboard at `/`
 * only; a reload or a shared link opens the same page.
 */

import { useEffect, useState } from 'preact/hooks';

/** The pages. */
export const PAGES = ['servers', 'tools', 'activity', 'metrics', 'access', 'approvals', 'clients'] as const;
export type PageName = (typeof PAGES)[number];

/** A route: the page and its query parameters. */
export interface Route {
  page: PageName;
  params: URLSearchParams;
}

/** The route of a fragment; unknown pages open Servers. */
export function routeOf(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?', 2);
  const page = PAGES.find((name) => name === path) ?? 'servers';
  return { page, params: new URLSearchParams(query) };
}

/** The fragment of a route. */
export function hrefOf(page: PageName, params: Record<string, string> = {}): string {
  const query = new URLSearchParams(Object.entries(params).filter(([, value]) => value !== '')).toString();
  return `#/${page}${query === '' ? '' : `?${query}`}`;
}

/** The current route, following the fragment. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => routeOf(window.location.hash));
  useEffect(() => {
    const update = (): void => setRoute(routeOf(window.location.hash));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}

/** Changes the fragment without adding a history entry (filters, selections). */
export function replaceRoute(page: PageName, params: Record<string, string>): void {
  window.history.replaceState(null, '', `${window.location.pathname}${window.location.search}${hrefOf(page, params)}`);
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}

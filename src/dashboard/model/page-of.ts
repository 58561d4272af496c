/**
 * @module dashboard/model/page-of
 * One page of a long list: the dashboard draws at most a page of rows at a time, so a catalog of
 * 100,000 tools costs as much to show as one of a hundred.
 */

/** Rows per page of the tools list. @default 100 */
export const TOOLS_PAGE_SIZE = 100;

/** A page of items, with where it sits in the whole list (1-based, `start`–`end` inclusive). */
export interface ListPage<T> {
  items: T[];
  page: number;
  pages: number;
  start: number;
  end: number;
}

/** Page `requested` (1-based, clamped to the pages there are; anything unparsable is page 1) of `items`. */
export function pageOf<T>(items: readonly T[], requested: number, size: number = TOOLS_PAGE_SIZE): ListPage<T> {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const page = Number.isInteger(requested) ? Math.min(Math.max(1, requested), pages) : 1;
  const from = (page - 1) * size;
  const slice = items.slice(from, from + size);
  return { items: slice, page, pages, start: slice.length === 0 ? 0 : from + 1, end: from + slice.length };
}

/**
 * @module connection/list-pages
 * A whole list (`tools/list`, `prompts/list`, …), following `nextCursor` page by page, bounded
 * against a server whose cursor never ends; invalid entries are logged and left out.
 */

import type { SwitchboardError } from '../errors.js';
import type { Logger } from '../logger.js';
import { LIST_METHODS, invalidListItem, type ListKind } from './mcp-types.js';

/** Pages followed at most when listing, against a server whose cursor never ends. @default 64 */
export const MAX_LIST_PAGES = 64;

/** Requests one page. */
export type PageRequest = (method: string, params: { cursor: string } | undefined) => Promise<unknown>;

/** Lists every item of `kind`. `invalidResult(method, problem)` builds the error of a broken page. */
export async function listPages(kind: ListKind, request: PageRequest, logger: Logger, invalidResult: (method: string, problem: string) => SwitchboardError): Promise<unknown[]> {
  const { method, field } = LIST_METHODS[kind];
  const items: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const result = await request(method, cursor === undefined ? undefined : { cursor });
    const list = (result as Record<string, unknown> | undefined)?.[field];
    if (!Array.isArray(list)) throw invalidResult(method, `\`${field}\` is not an array`);
    for (const item of list) keepValid(kind, method, item, items, logger);
    const next = (result as { nextCursor?: unknown }).nextCursor;
    if (typeof next !== 'string' || next === '' || next === cursor) return items;
    cursor = next;
  }
  throw invalidResult(method, `pagination did not end after ${MAX_LIST_PAGES} pages`);
}

/** The valid entries of a list the session fetched itself. */
export function validItems(kind: ListKind, list: unknown[], logger: Logger): unknown[] {
  const { method } = LIST_METHODS[kind];
  const items: unknown[] = [];
  for (const item of list) keepValid(kind, method, item, items, logger);
  return items;
}

function keepValid(kind: ListKind, method: string, item: unknown, into: unknown[], logger: Logger): void {
  const problem = invalidListItem(kind, item);
  if (problem === undefined) into.push(item);
  else logger.warn(`ignored an invalid entry in ${method}`, { problem, name: (item as { name?: unknown } | null)?.name });
}

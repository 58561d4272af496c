/**
 * @module client/catalog/catalog-extras
 * What the catalog keeps of a listed tool, prompt or resource beyond its name and schemas: its icons
 * (only safe ones, see {@link safeIcons}), its `_meta` as the server sent it (MCP Apps put the
 * tool's `ui://` resource there; other extensions put their own keys), and a tool's `execution`
 * (whether it runs as a task).
 */

import { safeIcons } from './safe-icons.js';
import type { Icon } from '../../connection/mcp-types.js';

/** The extras of a catalog entry. */
export interface CatalogExtras {
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  execution?: { taskSupport?: 'forbidden' | 'optional' | 'required'; [key: string]: unknown };
}

/** The icons and `_meta` of a listed item (fields absent when it has none). */
export function catalogExtras(item: { icons?: unknown; _meta?: unknown; execution?: unknown }): CatalogExtras {
  const extras: CatalogExtras = {};
  const icons = item.icons === undefined ? undefined : safeIcons(item.icons);
  if (icons !== undefined) extras.icons = icons;
  const meta = item._meta;
  if (typeof meta === 'object' && meta !== null && !Array.isArray(meta)) extras._meta = meta as Record<string, unknown>;
  const execution = item.execution;
  if (typeof execution === 'object' && execution !== null && !Array.isArray(execution)) extras.execution = execution as CatalogExtras['execution'] & object;
  return extras;
}

/** `item` with only its safe icons (the field removed when none is); the item itself when it has no icons. */
export function withSafeIcons<T extends { icons?: unknown }>(item: T): T {
  if (item.icons === undefined) return item;
  const { icons, ...rest } = item;
  const safe = safeIcons(icons);
  return (safe === undefined ? rest : { ...rest, icons: safe }) as T;
}

/**
 * @module client/catalog/safe-icons
 * The icons of a server, tool, prompt or resource as the catalog keeps them: only images a client can
 * show without reaching somewhere it should not (`https:` URLs and `data:` image URIs — no `http:`,
 * `file:` or `javascript:`), each bounded in size, a few per item. A server's icon list is its own
 * claim; an icon that fails a check is dropped, the others are kept.
 */

import type { Icon } from '../../connection/mcp-types.js';

/** Longest `https:` icon URL kept. */
export const MAX_ICON_URL_CHARS = 2_048;
/** Longest `data:` icon URI kept (about 48 KiB of image). */
export const MAX_ICON_DATA_URI_CHARS = 65_536;
/** Most icons kept per item. */
export const MAX_ICONS = 8;

/** Image types a client can render in an `<img>` (where an SVG's scripts do not run). */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/gif', 'image/webp', 'image/svg+xml', 'image/x-icon', 'image/vnd.microsoft.icon', 'image/avif']);
const SIZE = /^(any|\d{1,5}x\d{1,5})$/;
const DATA_URI = /^data:([a-z0-9.+/-]+);base64,[A-Za-z0-9+/]+={0,2}$/i;

/** The usable icons of `value` (a server's `icons` field), or undefined when none is. */
export function safeIcons(value: unknown): Icon[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const icons: Icon[] = [];
  for (const item of value) {
    const icon = safeIcon(item);
    if (icon !== undefined) icons.push(icon);
    if (icons.length === MAX_ICONS) break;
  }
  return icons.length === 0 ? undefined : icons;
}

/** One icon, rebuilt from its known fields, or undefined when it is not a safe image. */
export function safeIcon(item: unknown): Icon | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const { src, mimeType, sizes, theme } = item as Record<string, unknown>;
  if (typeof src !== 'string') return undefined;
  if (mimeType !== undefined && (typeof mimeType !== 'string' || !IMAGE_TYPES.has(mimeType.toLowerCase()))) return undefined;
  if (!isSafeSource(src)) return undefined;
  const icon: Icon = { src };
  if (typeof mimeType === 'string') icon.mimeType = mimeType;
  if (Array.isArray(sizes)) {
    const valid = sizes.filter((size): size is string => typeof size === 'string' && SIZE.test(size)).slice(0, 8);
    if (valid.length > 0) icon.sizes = valid;
  }
  if (theme === 'light' || theme === 'dark') icon.theme = theme;
  return icon;
}

/** True for an `https:` URL or a base64 `data:` URI of an image type, within the size bounds. */
export function isSafeSource(src: string): boolean {
  if (src.startsWith('data:')) {
    if (src.length > MAX_ICON_DATA_URI_CHARS) return false;
    const match = DATA_URI.exec(src);
    return match?.[1] !== undefined && IMAGE_TYPES.has(match[1].toLowerCase());
  }
  if (src.length > MAX_ICON_URL_CHARS) return false;
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return false;
  }
  // Credentials in an icon URL would be sent by every client that shows it.
  return url.protocol === 'https:' && url.username === '' && url.password === '';
}

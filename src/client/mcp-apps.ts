/**
 * @module client/mcp-apps
 * What the library knows of MCP Apps (the `io.modelcontextprotocol/ui` extension): a tool names the
 * `ui://` resource that renders its results in `_meta.ui.resourceUri` (or the older flat key
 * `_meta["ui/resourceUri"]`), and may be visible to the app only (`_meta.ui.visibility: ["app"]`).
 * A server need not list its `ui://` resources, so a read of one goes to the server whose tool names it.
 */

/** The extension's id, the key under `capabilities.extensions`. */
export const UI_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/** The MIME type of an MCP App's HTML. */
export const UI_MIME_TYPE = 'text/html;profile=mcp-app';
/** The capability a client that renders MCP Apps declares. */
export const UI_CLIENT_CAPABILITY = { mimeTypes: [UI_MIME_TYPE] };

/** The older flat `_meta` key of a tool's UI resource. */
const FLAT_RESOURCE_URI_KEY = 'ui/resourceUri';

/** The `ui://` resource of a tool (from its `_meta`), or undefined. */
export function uiResourceUriOf(meta: Record<string, unknown> | undefined): string | undefined {
  if (meta === undefined) return undefined;
  const ui = meta.ui;
  const nested = typeof ui === 'object' && ui !== null ? (ui as Record<string, unknown>).resourceUri : undefined;
  const uri = typeof nested === 'string' ? nested : meta[FLAT_RESOURCE_URI_KEY];
  return typeof uri === 'string' && uri.startsWith('ui://') ? uri : undefined;
}

/** False for a tool only its app may call (`visibility` without `"model"`). */
export function isModelVisible(meta: Record<string, unknown> | undefined): boolean {
  const ui = meta?.ui;
  if (typeof ui !== 'object' || ui === null) return true;
  const visibility = (ui as Record<string, unknown>).visibility;
  return !Array.isArray(visibility) || visibility.includes('model');
}

/** `_meta` without the UI keys, for a client that does not render apps (undefined when nothing is left). */
export function withoutUiMeta(meta: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (meta === undefined || (meta.ui === undefined && meta[FLAT_RESOURCE_URI_KEY] === undefined)) return meta;
  const { ui: _ui, [FLAT_RESOURCE_URI_KEY]: _flat, ...rest } = meta;
  return Object.keys(rest).length === 0 ? undefined : rest;
}

/** The servers whose tools name `uri` as their UI resource. */
export function uiResourceServers(tools: Iterable<{ server: string; _meta?: Record<string, unknown> }>, uri: string): string[] {
  const servers = new Set<string>();
  for (const tool of tools) if (uiResourceUriOf(tool._meta) === uri) servers.add(tool.server);
  return [...servers];
}

/** True when a client's capabilities declare the UI extension with the MCP App MIME type. */
export function declaresUi(capabilities: Record<string, unknown> | undefined): boolean {
  const extensions = capabilities?.extensions;
  if (typeof extensions !== 'object' || extensions === null) return false;
  const ui = (extensions as Record<string, unknown>)[UI_EXTENSION_ID];
  if (typeof ui !== 'object' || ui === null) return false;
  const mimeTypes = (ui as Record<string, unknown>).mimeTypes;
  // A declaration without MIME types still says the client renders apps; the one type there is is ours.
  return !Array.isArray(mimeTypes) || mimeTypes.includes(UI_MIME_TYPE);
}

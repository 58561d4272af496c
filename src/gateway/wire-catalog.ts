/**
 * @module gateway/wire-catalog
 * The catalog as one downstream client sees it, by what it declared: a client that renders MCP Apps
 * (the `io.modelcontextprotocol/ui` extension in its capabilities) gets every tool with its `_meta`
 * and icons as the server listed them (under the exposed name, renamed or not); a client that does
 * not gets no tool only an app may call and no UI keys in `_meta` — a plain MCP client sees plain tools.
 */

import type { Tool } from '@modelcontextprotocol/server';
import type { CatalogPrompt, CatalogResource, CatalogTool } from '../client/multi-server-client.js';
import { declaresUi, isModelVisible, withoutUiMeta } from '../client/mcp-apps.js';
import { toWireTool } from './wire-format.js';

/** `tools/list` for a client with these capabilities. */
export function wireToolsFor(tools: readonly CatalogTool[], clientCapabilities: Record<string, unknown> | undefined): Tool[] {
  if (declaresUi(clientCapabilities)) return tools.map((tool) => toWireTool(tool));
  const wire: Tool[] = [];
  for (const tool of tools) {
    if (!isModelVisible(tool._meta)) continue;
    const meta = withoutUiMeta(tool._meta);
    const { _meta: _dropped, ...rest } = tool;
    wire.push(toWireTool(meta === undefined ? rest : { ...rest, _meta: meta }));
  }
  return wire;
}

/** A prompt of `prompts/list`. */
export function toWirePrompt(prompt: CatalogPrompt): Record<string, unknown> & { name: string } {
  return {
    name: prompt.name,
    ...(prompt.title === undefined ? {} : { title: prompt.title }),
    ...(prompt.description === undefined ? {} : { description: prompt.description }),
    ...(prompt.arguments === undefined ? {} : { arguments: prompt.arguments }),
    ...(prompt.icons === undefined ? {} : { icons: prompt.icons }),
    ...(prompt._meta === undefined ? {} : { _meta: prompt._meta }),
  };
}

/** A resource of `resources/list` (a `ui://` resource's `_meta.ui` carries its CSP and permissions). */
export function toWireResource(resource: CatalogResource): Record<string, unknown> & { uri: string; name: string } {
  return {
    uri: resource.uri,
    name: resource.name,
    ...(resource.title === undefined ? {} : { title: resource.title }),
    ...(resource.description === undefined ? {} : { description: resource.description }),
    ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }),
    ...(resource.size === undefined ? {} : { size: resource.size }),
    ...(resource.icons === undefined ? {} : { icons: resource.icons }),
    ...(resource._meta === undefined ? {} : { _meta: resource._meta }),
  };
}

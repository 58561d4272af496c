/**
 * @module client/catalog/catalog-items
 * The items of the combined catalogs (tools, prompts, resources, resource templates) and how a
 * server's definition becomes one.
 */

import { catalogExtras } from './catalog-extras.js';
import type { Icon, JsonSchema, PromptArgument, PromptDefinition, ResourceTemplateDefinition, ToolAnnotations, ToolDefinition } from '../../connection/mcp-types.js';

/** A tool in the combined catalog. */
export interface CatalogTool {
  /** The exposed, provider-safe name; call the tool by it. */
  name: string;
  server: string;
  originalName: string;
  title?: string;
  /** The server's description, prefixed with `[server]`. */
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  /** The server's icons for the tool (only safe image URIs, see `safeIcons`). */
  icons?: Icon[];
  /** The tool's `_meta` as listed (MCP Apps' `ui.resourceUri` among others). */
  _meta?: Record<string, unknown>;
  /** How the tool runs: `taskSupport` says whether it may (`optional`) or must (`required`) run as a task. */
  execution?: { taskSupport?: 'forbidden' | 'optional' | 'required'; [key: string]: unknown };
}

/** A prompt in the combined catalog. */
export interface CatalogPrompt {
  name: string;
  server: string;
  originalName: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: Record<string, unknown>;
}

/** A resource in the combined catalog. `uri` is unique across servers (rewritten only on a clash). */
export interface CatalogResource {
  uri: string;
  server: string;
  originalUri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
}

/** A resource template, with its server. */
export interface CatalogResourceTemplate extends ResourceTemplateDefinition {
  server: string;
}

/** A server's tool as a catalog entry under its exposed name. */
export function toCatalogTool(named: { name: string; server: string; originalName: string; item: ToolDefinition }): CatalogTool {
  const tool = named.item;
  // Plain assignments rather than conditional spreads: this runs for every tool on every re-list.
  const entry: CatalogTool = {
    name: named.name,
    server: named.server,
    originalName: named.originalName,
    description: tool.description === undefined || tool.description === '' ? `[${named.server}]` : `[${named.server}] ${tool.description}`,
    inputSchema: tool.inputSchema,
  };
  if (tool.title !== undefined) entry.title = tool.title;
  if (tool.outputSchema !== undefined) entry.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) entry.annotations = tool.annotations;
  Object.assign(entry, catalogExtras(tool));
  return entry;
}

/** A server's prompt as a catalog entry under its exposed name. */
export function toCatalogPrompt(named: { name: string; server: string; originalName: string; item: PromptDefinition }): CatalogPrompt {
  const prompt = named.item;
  return {
    name: named.name,
    server: named.server,
    originalName: named.originalName,
    ...(prompt.title === undefined ? {} : { title: prompt.title }),
    ...(prompt.description === undefined ? {} : { description: prompt.description }),
    ...(prompt.arguments === undefined ? {} : { arguments: prompt.arguments }),
    ...catalogExtras(prompt),
  };
}

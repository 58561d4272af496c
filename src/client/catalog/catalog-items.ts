/**
 * @module client/catalog/catalog-items
 * The items of the combined catalogs (tools, prompts, resources, resource templates) and how a
 * server's definition becomes one.
 */

import type { JsonSchema, PromptArgument, PromptDefinition, ResourceTemplateDefinition, ToolAnnotations, ToolDefinition } from '../../connection/mcp-types.js';

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
}

/** A prompt in the combined catalog. */
export interface CatalogPrompt {
  name: string;
  server: string;
  originalName: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
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
  };
}

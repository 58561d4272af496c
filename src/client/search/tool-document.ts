/**
 * @module client/search/tool-document
 * The searchable text of one catalog tool, by field: its name words (exposed name, original name,
 * title), its description (without the `[server]` prefix the catalog adds), its parameters (names,
 * descriptions and enum values of the top-level properties) and its server's name.
 */

import type { CatalogTool } from '../multi-server-client.js';

/** The fields a tool is indexed under. */
export interface ToolDocument {
  id: string;
  name: string;
  description: string;
  params: string;
  server: string;
}

/** The indexed fields, in the order boosts are listed. */
export const TOOL_FIELDS = ['name', 'description', 'params', 'server'] as const;

/** One searchable field of a tool. */
export type ToolField = (typeof TOOL_FIELDS)[number];

/** The document of `tool`. */
export function toToolDocument(tool: CatalogTool): ToolDocument {
  const names = tool.originalName === tool.name ? [tool.name] : [tool.name, tool.originalName];
  if (tool.title !== undefined) names.push(tool.title);
  return { id: tool.name, name: names.join(' '), description: descriptionOf(tool), params: paramsText(tool.inputSchema), server: tool.server };
}

/** True when two versions of a tool index to the same document (the catalog rebuilds its entries on every change). */
export function sameDocument(a: CatalogTool, b: CatalogTool): boolean {
  if (a === b) return true;
  if (a.name !== b.name || a.originalName !== b.originalName || a.server !== b.server || a.title !== b.title || a.description !== b.description) return false;
  return a.inputSchema === b.inputSchema || JSON.stringify(a.inputSchema) === JSON.stringify(b.inputSchema);
}

function descriptionOf(tool: CatalogTool): string {
  const text = tool.description ?? '';
  const prefix = `[${tool.server}]`;
  return text.startsWith(prefix) ? text.slice(prefix.length) : text;
}

function paramsText(schema: unknown): string {
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  const parts: string[] = [];
  for (const [name, property] of Object.entries(properties)) {
    parts.push(name);
    if (!isRecord(property)) continue;
    if (typeof property.description === 'string') parts.push(property.description);
    if (Array.isArray(property.enum)) for (const value of property.enum) if (typeof value === 'string') parts.push(value);
  }
  return parts.join(' ');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * @module connection/mcp-types
 * The MCP objects this library hands out (tools, resources, prompts), as plain interfaces, and the
 * hand-written checks that keep a server's list usable when one entry in it is malformed.
 */

import { deeperThan } from '../util/json-depth.js';
import type { ContentItem, ResourceContents } from '../result/tool-result.js';

/** A JSON Schema object (as sent by the server; never trusted beyond being an object). */
export type JsonSchema = Record<string, unknown>;

/** Hints a server gives about a tool's behaviour (MCP `ToolAnnotations`). Hints, not guarantees. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [key: string]: unknown;
}

/** An icon a server gives for itself, a tool, a prompt or a resource (MCP 2025-11-25 `Icon`). */
export interface Icon {
  /** An `https:` URL or a `data:` URI of an image (the catalog keeps no other kind, see `safeIcons`). */
  src: string;
  mimeType?: string;
  /** Sizes as `WxH` or `any`. */
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** A tool as a server lists it. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A resource as a server lists it. */
export interface ResourceDefinition {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A resource template as a server lists it. */
export interface ResourceTemplateDefinition {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: Icon[];
  [key: string]: unknown;
}

/** A prompt argument. */
export interface PromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

/** A prompt as a server lists it. */
export interface PromptDefinition {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The result of `resources/read`. */
export interface ReadResourceResult {
  contents: ResourceContents[];
  [key: string]: unknown;
}

/** One message of a prompt. */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentItem;
}

/** The result of `prompts/get`. */
export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  [key: string]: unknown;
}

/** The server's self-description from the handshake. */
export interface ServerInfo {
  name: string;
  version: string;
  title?: string;
  icons?: Icon[];
  websiteUrl?: string;
  [key: string]: unknown;
}

/** The kinds of list a server may offer, with the field that holds the items. */
export const LIST_METHODS = {
  tools: { method: 'tools/list', field: 'tools' },
  resources: { method: 'resources/list', field: 'resources' },
  resourceTemplates: { method: 'resources/templates/list', field: 'resourceTemplates' },
  prompts: { method: 'prompts/list', field: 'prompts' },
} as const;
/** One of the list kinds. */
export type ListKind = keyof typeof LIST_METHODS;

/**
 * How deep a listed item (a tool with its schemas, a prompt, a resource) may nest. Real schemas stay
 * within a few dozen levels; a deeper one overflows the recursive code it meets (schema compilation,
 * `JSON.stringify` of a whole tool list) and would break the list for every user of the server.
 */
export const MAX_LIST_ITEM_DEPTH = 128;

/** Why a listed item was dropped, or undefined when it is usable. */
export function invalidListItem(kind: ListKind, item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null) return 'not an object';
  if (deeperThan(item, MAX_LIST_ITEM_DEPTH)) return `nested more than ${MAX_LIST_ITEM_DEPTH} levels deep`;
  const record = item as Record<string, unknown>;
  switch (kind) {
    case 'tools':
      if (typeof record.name !== 'string' || record.name === '') return 'no name';
      if (typeof record.inputSchema !== 'object' || record.inputSchema === null || Array.isArray(record.inputSchema)) return 'no inputSchema object';
      return undefined;
    case 'resources':
      return typeof record.uri === 'string' && typeof record.name === 'string' ? undefined : 'needs uri and name';
    case 'resourceTemplates':
      return typeof record.uriTemplate === 'string' && typeof record.name === 'string' ? undefined : 'needs uriTemplate and name';
    case 'prompts':
      return typeof record.name === 'string' && record.name !== '' ? undefined : 'no name';
  }
}

/** True for a URL-mode elicitation request (`elicitation/create` with `mode: "url"`, see url-elicitation). */
export function isUrlElicitation(params: Record<string, unknown>): boolean {
  return params.mode === 'url';
}

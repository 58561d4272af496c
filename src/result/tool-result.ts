/**
 * @module result/tool-result
 * The normalized result of a tool call: every content item kept, `isError` kept.
 */

/** Optional MCP annotations on a content item (audience, priority, lastModified). */
export type ContentAnnotations = Record<string, unknown>;

/** Text. */
export interface TextContentItem {
  type: 'text';
  text: string;
  annotations?: ContentAnnotations;
}
/** Base64 image or audio with its MIME type. */
export interface MediaContentItem {
  type: 'image' | 'audio';
  data: string;
  mimeType: string;
  annotations?: ContentAnnotations;
}
/** The contents of a resource: `text` or base64 `blob`. */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
  [key: string]: unknown;
}
/** A resource embedded in the result. */
export interface ResourceContentItem {
  type: 'resource';
  resource: ResourceContents;
  annotations?: ContentAnnotations;
}
/** A link to a resource the client may read. */
export interface ResourceLinkContentItem {
  type: 'resource_link';
  uri: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: ContentAnnotations;
}
/** One item of a tool result. */
export type ContentItem = TextContentItem | MediaContentItem | ResourceContentItem | ResourceLinkContentItem;

/** The normalized result of `tools/call`. `isError: true` is a result, not an exception. */
export interface ToolResult {
  isError: boolean;
  content: ContentItem[];
  structuredContent?: unknown;
  _meta?: Record<string, unknown>;
}

/**
 * @module dashboard/model/result-view
 * A tool result turned into the parts the dashboard shows: text, images, audio, embedded resources,
 * links, structured JSON. Results come from arbitrary servers, so nothing is trusted: media become
 * `data:` URLs only with a well-formed MIME type of the right family and base64 data; links are
 * clickable only for http(s).
 */

import { isRecord } from './is-record.js';

/** One thing to show. */
export type ResultPart =
  | { kind: 'text'; text: string; /** Pretty JSON when the text is a JSON object or array. */ json?: string }
  | { kind: 'image'; src: string; mimeType: string; alt: string }
  | { kind: 'audio'; src: string; mimeType: string }
  | { kind: 'file'; href: string; fileName: string; mimeType: string; label: string }
  | { kind: 'resource'; uri: string; mimeType?: string; text: string }
  | { kind: 'link'; uri: string; label: string; href?: string; mimeType?: string; description?: string }
  | { kind: 'unknown'; json: string };

/** A whole result, ready to render. */
export interface ResultView {
  isError: boolean;
  parts: ResultPart[];
  /** `structuredContent`, pretty-printed. */
  structured?: string;
}

const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** `data:MIME;base64,DATA`, or undefined when the MIME type or the data is malformed. */
export function toDataUrl(mimeType: unknown, data: unknown): string | undefined {
  if (typeof mimeType !== 'string' || typeof data !== 'string' || !MIME_TYPE.test(mimeType)) return undefined;
  const compact = data.replace(/\s+/g, '');
  if (compact.length % 4 === 1 || !BASE64.test(compact)) return undefined;
  return `data:${mimeType.toLowerCase()};base64,${compact}`;
}

/** The URL itself when it is http(s) (safe as an `href`), else undefined. */
export function safeHref(uri: unknown): string | undefined {
  if (typeof uri !== 'string') return undefined;
  try {
    const url = new URL(uri);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The view of a tool result (anything that is not a result shows as JSON). */
export function viewOfResult(result: unknown): ResultView {
  if (!isRecord(result)) return { isError: false, parts: [{ kind: 'unknown', json: pretty(result) }] };
  const content = Array.isArray(result.content) ? result.content : [];
  const view: ResultView = { isError: result.isError === true, parts: content.map((item, index) => partOf(item, index)) };
  if (result.structuredContent !== undefined) view.structured = pretty(result.structuredContent);
  return view;
}

function partOf(item: unknown, index: number): ResultPart {
  if (!isRecord(item)) return { kind: 'unknown', json: pretty(item) };
  switch (item.type) {
    case 'text':
      return typeof item.text === 'string' ? textPart(item.text) : { kind: 'unknown', json: pretty(item) };
    case 'image':
    case 'audio':
      return mediaPart(item.type, item.mimeType, item.data, `content ${index + 1}`) ?? { kind: 'unknown', json: pretty({ ...item, data: '…' }) };
    case 'resource':
      return resourcePart(item.resource, index);
    case 'resource_link':
      return linkPart(item);
    default:
      return { kind: 'unknown', json: pretty(item) };
  }
}

function textPart(text: string): ResultPart {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (typeof parsed === 'object' && parsed !== null) return { kind: 'text', text, json: pretty(parsed) };
    } catch {
      // Not JSON after all: plain text.
    }
  }
  return { kind: 'text', text };
}

/** Images and audio of the right MIME family play inline; anything else becomes a download. */
function mediaPart(family: 'image' | 'audio', mimeType: unknown, data: unknown, name: string): ResultPart | undefined {
  const src = toDataUrl(mimeType, data);
  if (src === undefined || typeof mimeType !== 'string') return undefined;
  const type = mimeType.toLowerCase();
  if (family === 'image' && type.startsWith('image/')) return { kind: 'image', src, mimeType: type, alt: `image returned by the tool (${type})` };
  if (family === 'audio' && type.startsWith('audio/')) return { kind: 'audio', src, mimeType: type };
  return { kind: 'file', href: src, fileName: name.replaceAll(' ', '-'), mimeType: type, label: `${family} of type ${type}` };
}

function resourcePart(resource: unknown, index: number): ResultPart {
  if (!isRecord(resource) || typeof resource.uri !== 'string') return { kind: 'unknown', json: pretty(resource) };
  const mimeType = typeof resource.mimeType === 'string' ? resource.mimeType : undefined;
  if (typeof resource.text === 'string') return { kind: 'resource', uri: resource.uri, ...(mimeType ? { mimeType } : {}), text: resource.text };
  if (typeof resource.blob === 'string') {
    const type = mimeType ?? 'application/octet-stream';
    const family = type.startsWith('image/') ? 'image' : type.startsWith('audio/') ? 'audio' : undefined;
    const media = family === undefined ? undefined : mediaPart(family, type, resource.blob, resource.uri);
    if (media !== undefined) return media;
    const href = toDataUrl(type, resource.blob);
    if (href !== undefined) return { kind: 'file', href, fileName: fileNameOf(resource.uri, index), mimeType: type, label: resource.uri };
  }
  return { kind: 'unknown', json: pretty({ ...resource, blob: resource.blob === undefined ? undefined : '…' }) };
}

function linkPart(item: Record<string, unknown>): ResultPart {
  if (typeof item.uri !== 'string') return { kind: 'unknown', json: pretty(item) };
  const label = typeof item.title === 'string' ? item.title : typeof item.name === 'string' ? item.name : item.uri;
  const part: ResultPart = { kind: 'link', uri: item.uri, label };
  const href = safeHref(item.uri);
  if (href !== undefined) part.href = href;
  if (typeof item.mimeType === 'string') part.mimeType = item.mimeType;
  if (typeof item.description === 'string') part.description = item.description;
  return part;
}

function fileNameOf(uri: string, index: number): string {
  const last = uri.split(/[/\\]/).at(-1) ?? '';
  return /^[\w.-]{1,100}$/.test(last) ? last : `resource-${index + 1}`;
}

function pretty(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * @module client/name-catalog
 * Provider-safe names for items (tools, prompts) offered by several servers. Every exposed name
 * matches `^[a-zA-Z0-9_-]{1,64}$` (what OpenAI and Anthropic accept): other characters are replaced,
 * over-long names are cut and given a short stable hash, and two servers offering the same name are
 * resolved by the naming strategy. Every rename and collision is reported. The name → (server,
 * original name) routing table is stored by the caller, never parsed back from the name.
 */

import { ConfigError } from '../errors.js';
import type { NamingStrategy } from '../config/server-spec.js';
import { globMatcher } from './glob.js';

/** Longest exposed name. */
export const MAX_NAME_LENGTH = 64;
/** Between a server prefix and an item name. */
export const PREFIX_SEPARATOR = '__';
const SAFE_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const HASH_LENGTH = 8;

/** Why an exposed name differs from the original. */
export type RenameReason = 'prefixed' | 'sanitized' | 'truncated' | 'deduplicated';

/** Items of one server to be named. */
export interface NameSource<T extends { name: string }> {
  server: string;
  /** Prefix used when the server's names need one. */
  prefix: string;
  items: readonly T[];
  include?: readonly string[];
  exclude?: readonly string[];
}

/** One named item. */
export interface NamedItem<T> {
  name: string;
  server: string;
  originalName: string;
  item: T;
}

/** A rename, with its reasons. */
export interface NameRename {
  server: string;
  originalName: string;
  name: string;
  reasons: RenameReason[];
}

/** Several servers offering the same name. */
export interface NameCollision {
  name: string;
  servers: string[];
}

/** What naming did: renames, collisions, items filtered out by include/exclude. */
export interface NameReport {
  strategy: NamingStrategy;
  renames: NameRename[];
  collisions: NameCollision[];
  filtered: Array<{ server: string; originalName: string; by: 'include' | 'exclude' }>;
}

/** True when `name` is acceptable to the major LLM providers as a tool name. */
export function isProviderSafeName(name: string): boolean {
  return SAFE_NAME.test(name);
}

/** `name` with every character outside `[a-zA-Z0-9_-]` replaced by `_` (empty names become `_`). */
export function sanitizeName(name: string): string {
  if (name !== '' && isSafeText(name)) return name;
  const replaced = name.replace(/[^a-zA-Z0-9_-]/g, '_');
  return replaced === '' ? '_' : replaced;
}

/** True when every character is in `[a-zA-Z0-9_-]` (a loop: cheaper than a regex per listed tool). */
function isSafeText(name: string): boolean {
  for (let index = 0; index < name.length; index++) {
    const code = name.charCodeAt(index);
    const safe = (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x5f || code === 0x2d;
    if (!safe) return false;
  }
  return true;
}

/** A short stable hash of a server and original name, for truncated and deduplicated names. */
export function nameHash(server: string, originalName: string, length = HASH_LENGTH): string {
  // node:crypto costs ~2 MiB and ~10 ms to load, and most catalogs never need a hash.
  const { createHash } = process.getBuiltinModule('node:crypto');
  return createHash('sha256').update(`${server}\0${originalName}`).digest('hex').slice(0, length);
}

/**
 * Names every item of every source. Throws {@link ConfigError} when `strategy` is `none` and two
 * servers offer the same name (naming both servers).
 */
export function buildNameCatalog<T extends { name: string }>(
  sources: ReadonlyArray<NameSource<T>>,
  strategy: NamingStrategy,
  kind = 'tool',
): { items: Array<NamedItem<T>>; report: NameReport } {
  const report: NameReport = { strategy, renames: [], collisions: [], filtered: [] };
  const kept: Array<{ source: NameSource<T>; item: T; base: string }> = [];
  for (const source of sources) {
    const isIncluded = source.include === undefined || source.include.length === 0 ? () => true : globMatcher(source.include);
    const isExcluded = source.exclude === undefined || source.exclude.length === 0 ? () => false : globMatcher(source.exclude);
    for (const item of source.items) {
      if (!isIncluded(item.name)) report.filtered.push({ server: source.server, originalName: item.name, by: 'include' });
      else if (isExcluded(item.name)) report.filtered.push({ server: source.server, originalName: item.name, by: 'exclude' });
      else kept.push({ source, item, base: sanitizeName(item.name) });
    }
  }

  const serversByBase = new Map<string, Set<string>>();
  for (const { source, base } of kept) {
    const set = serversByBase.get(base) ?? new Set<string>();
    set.add(source.server);
    serversByBase.set(base, set);
  }
  for (const [name, servers] of serversByBase) {
    if (servers.size > 1) report.collisions.push({ name, servers: [...servers] });
  }
  if (strategy === 'none' && report.collisions.length > 0) {
    throw new ConfigError(
      report.collisions.map((collision) => ({
        path: 'naming',
        message: `${kind} "${collision.name}" is offered by servers ${collision.servers.map((server) => `"${server}"`).join(' and ')}`,
        hint: 'use `naming: on-conflict` or `prefix`, or `exclude` the tool on one server',
      })),
    );
  }

  const items: Array<NamedItem<T>> = [];
  const taken = new Set<string>();
  const pending: Array<{ source: NameSource<T>; item: T; name: string; reasons: RenameReason[] }> = [];
  for (const { source, item, base } of kept) {
    const reasons: RenameReason[] = [];
    if (base !== item.name) reasons.push('sanitized');
    const needsPrefix = strategy === 'prefix' || (strategy === 'on-conflict' && (serversByBase.get(base)?.size ?? 0) > 1);
    let name = base;
    if (needsPrefix) {
      name = `${sanitizeName(source.prefix)}${PREFIX_SEPARATOR}${base}`;
      reasons.push('prefixed');
    }
    if (name.length > MAX_NAME_LENGTH) {
      name = `${name.slice(0, MAX_NAME_LENGTH - HASH_LENGTH - 1)}_${nameHash(source.server, item.name)}`;
      reasons.push('truncated');
    }
    pending.push({ source, item, name, reasons });
  }
  // A name can still clash: two names of one server that sanitize alike, or a prefixed name equal to
  // another server's plain one. The first keeps it; later ones get a hash, stable across rebuilds.
  for (const entry of pending) {
    let { name } = entry;
    if (taken.has(name)) {
      const hash = nameHash(entry.source.server, entry.item.name);
      name = `${name.slice(0, MAX_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`;
      for (let attempt = 1; taken.has(name); attempt++) name = `${name.slice(0, MAX_NAME_LENGTH - HASH_LENGTH - 1)}_${nameHash(entry.source.server, `${entry.item.name}#${attempt}`)}`;
      entry.reasons.push('deduplicated');
    }
    taken.add(name);
    items.push({ name, server: entry.source.server, originalName: entry.item.name, item: entry.item });
    if (entry.reasons.length > 0) {
      report.renames.push({ server: entry.source.server, originalName: entry.item.name, name, reasons: entry.reasons });
    }
  }
  return { items, report };
}

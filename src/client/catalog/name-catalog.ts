/**
 * @module client/catalog/name-catalog
 * Provider-safe names for items (tools, prompts) offered by several servers. Every exposed name
 * matches `^[a-zA-Z0-9_-]{1,64}$` (what OpenAI and Anthropic accept): other characters are replaced,
 * over-long names are cut and given a short stable hash, and two servers offering the same name are
 * resolved by the naming strategy. Every rename and collision is reported. The name → (server,
 * original name) routing table is stored by the caller, never parsed back from the name.
 */

import { ConfigError } from '../../errors.js';
import type { NamingStrategy } from '../../config/server-spec.js';
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
  /** The server is not up: its items (last known) take part in naming but are not offered. */
  offline?: boolean;
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
  /**
   * Servers whose tools are not known yet: until they are, every name is prefixed, so that no bare
   * name handed out now can later belong to one of them.
   */
  pending?: string[];
}

/** Options of {@link nameItems}. */
export interface NamingOptions {
  /** Servers whose items are unknown: under `on-conflict` every name is then prefixed. */
  pending?: readonly string[];
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
  options: NamingOptions = {},
): { items: Array<NamedItem<T>>; report: NameReport } {
  const items: Array<NamedItem<T>> = [];
  const report = nameItems(
    sources,
    strategy,
    kind,
    (name, server, originalName, item) => {
      items.push({ name, server, originalName, item });
    },
    options,
  );
  return { items, report };
}

/** Marks a base name offered by more than one server. */
const SEVERAL = -1;

/**
 * {@link buildNameCatalog} without intermediate objects: `emit` receives each item's exposed name,
 * and its prefixed form (the name it has when prefixed: it routes to the item whatever the strategy).
 * This runs on every `list_changed`, for every tool of every server, so it keeps to arrays, one map
 * of base names and one set of taken names.
 */
export function nameItems<T extends { name: string }>(
  sources: ReadonlyArray<NameSource<T>>,
  strategy: NamingStrategy,
  kind: string,
  emit: (name: string, server: string, originalName: string, item: T, prefixed: string, offline: boolean) => void,
  options: NamingOptions = {},
): NameReport {
  const report: NameReport = { strategy, renames: [], collisions: [], filtered: [] };
  const pending = strategy === 'on-conflict' && options.pending !== undefined && options.pending.length > 0;
  if (pending) report.pending = [...(options.pending ?? [])];
  const keptItems: T[][] = [];
  const keptBases: string[][] = [];
  // Which source first offered a base name, or SEVERAL; only needed when names can collide.
  const owner = sources.length > 1 ? new Map<string, number>() : undefined;
  for (let index = 0; index < sources.length; index++) {
    const source = sources[index] as NameSource<T>;
    const include = source.include === undefined || source.include.length === 0 ? undefined : globMatcher(source.include);
    const exclude = source.exclude === undefined || source.exclude.length === 0 ? undefined : globMatcher(source.exclude);
    const itemsOfSource: T[] = [];
    const basesOfSource: string[] = [];
    for (const item of source.items) {
      if (include !== undefined && !include(item.name)) {
        if (source.offline !== true) report.filtered.push({ server: source.server, originalName: item.name, by: 'include' });
      } else if (exclude?.(item.name) === true) {
        if (source.offline !== true) report.filtered.push({ server: source.server, originalName: item.name, by: 'exclude' });
      } else {
        const base = sanitizeName(item.name);
        itemsOfSource.push(item);
        basesOfSource.push(base);
        if (owner !== undefined) {
          const first = owner.get(base);
          if (first === undefined) owner.set(base, index);
          else if (first !== index && first !== SEVERAL) owner.set(base, SEVERAL);
        }
      }
    }
    keptItems.push(itemsOfSource);
    keptBases.push(basesOfSource);
  }

  if (owner !== undefined) {
    for (const [base, first] of owner) {
      if (first !== SEVERAL) continue;
      const servers: string[] = [];
      for (let index = 0; index < sources.length; index++) if (keptBases[index]?.includes(base) === true) servers.push((sources[index] as NameSource<T>).server);
      report.collisions.push({ name: base, servers });
    }
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

  // A name can still clash: two names of one server that sanitize alike, or a prefixed name equal to
  // another server's plain one. The first keeps it; later ones get a hash, stable across rebuilds.
  const taken = new Set<string>();
  for (let index = 0; index < sources.length; index++) {
    const source = sources[index] as NameSource<T>;
    const itemsOfSource = keptItems[index] as T[];
    const basesOfSource = keptBases[index] as string[];
    const serverPrefix = `${sanitizeName(source.prefix)}${PREFIX_SEPARATOR}`;
    const prefix = strategy === 'none' ? '' : serverPrefix;
    for (let position = 0; position < itemsOfSource.length; position++) {
      const item = itemsOfSource[position] as T;
      const base = basesOfSource[position] as string;
      let reasons: RenameReason[] | undefined;
      let name = base;
      if (base !== item.name) reasons = ['sanitized'];
      if (strategy === 'prefix' || (strategy === 'on-conflict' && (pending || owner?.get(base) === SEVERAL))) {
        name = prefix + base;
        (reasons ??= []).push('prefixed');
      }
      if (name.length > MAX_NAME_LENGTH) {
        name = `${name.slice(0, MAX_NAME_LENGTH - HASH_LENGTH - 1)}_${nameHash(source.server, item.name)}`;
        (reasons ??= []).push('truncated');
      }
      if (taken.has(name)) {
        name = `${name.slice(0, MAX_NAME_LENGTH - HASH_LENGTH - 1)}_${nameHash(source.server, item.name)}`;
        for (let attempt = 1; taken.has(name); attempt++) name = `${name.slice(0, MAX_NAME_LENGTH - HASH_LENGTH - 1)}_${nameHash(source.server, `${item.name}#${attempt}`)}`;
        (reasons ??= []).push('deduplicated');
      }
      taken.add(name);
      let prefixed = serverPrefix + base;
      if (prefixed.length > MAX_NAME_LENGTH) prefixed = `${prefixed.slice(0, MAX_NAME_LENGTH - HASH_LENGTH - 1)}_${nameHash(source.server, item.name)}`;
      emit(name, source.server, item.name, item, prefixed, source.offline === true);
      if (reasons !== undefined && source.offline !== true) report.renames.push({ server: source.server, originalName: item.name, name, reasons });
    }
  }
  return report;
}

/**
 * @module client/catalog/routed-catalog
 * A versioned, immutable set of named items with its routing table. A name given out earlier keeps
 * routing after a rebuild renames its item (e.g. `read_file` becomes `fs__read_file` when a second
 * server adds `read_file`): it stays as an alias while its item exists and nothing else claims it.
 * Every item's prefixed form (`fs__read_file`) routes to it too, whatever the strategy chose. Items
 * of servers that are not up (their last known lists) are named like the others, so names never
 * depend on which servers are up, but are not offered: {@link RoutedCatalog.owner} tells whose they are.
 */

import type { NamingStrategy } from '../../config/server-spec.js';
import { LazyNameMap } from './lazy-name-map.js';
import { nameItems, type NameReport, type NameSource, type NamingOptions } from './name-catalog.js';

/** An entry: exposed name, owning server, original name. */
export interface RoutedEntry {
  name: string;
  server: string;
  originalName: string;
}

/** What changed between two versions of a catalog. */
export interface CatalogDiff {
  added: string[];
  removed: string[];
  renamed: Array<{ from: string; to: string }>;
}

/** Items of one kind across servers, named and routable. */
export class RoutedCatalog<E extends RoutedEntry> {
  readonly version: number;
  readonly entries: readonly E[];
  readonly report: NameReport;
  readonly #byName: Map<string, E>;
  /** Entries by server, then original name: built once, used by the next build and by diffs. */
  readonly #byOrigin: Map<string, Map<string, E>>;
  readonly #aliases: Map<string, E>;
  /** Prefixed forms of live items, and names of items whose server is not up: looked up only on a miss, so built lazily. */
  readonly #more: { prefixed: LazyNameMap<E>; offline: LazyNameMap<RoutedEntry> };

  private constructor(
    version: number,
    entries: E[],
    report: NameReport,
    byName: Map<string, E>,
    byOrigin: Map<string, Map<string, E>>,
    aliases: Map<string, E>,
    more: { prefixed: LazyNameMap<E>; offline: LazyNameMap<RoutedEntry> },
  ) {
    this.version = version;
    this.entries = entries;
    this.report = report;
    this.#byName = byName;
    this.#byOrigin = byOrigin;
    this.#aliases = aliases;
    this.#more = more;
  }

  /** An empty catalog. */
  static empty<E extends RoutedEntry>(strategy: NamingStrategy): RoutedCatalog<E> {
    return new RoutedCatalog<E>(0, [], { strategy, renames: [], collisions: [], filtered: [] }, new Map(), new Map(), new Map(), { prefixed: new LazyNameMap(), offline: new LazyNameMap() });
  }

  /**
   * Builds the next version from each server's items. `toEntry` makes the public entry of one item.
   * Throws ConfigError for collisions under strategy `none`. This runs on every `list_changed`: one
   * pass, no intermediate objects, and no alias work unless a name actually changed.
   */
  static build<T extends { name: string }, E extends RoutedEntry>(
    sources: ReadonlyArray<NameSource<T>>,
    strategy: NamingStrategy,
    toEntry: (named: { name: string; server: string; originalName: string; item: T }) => E,
    previous?: RoutedCatalog<E>,
    kind = 'tool',
    options: NamingOptions = {},
  ): RoutedCatalog<E> {
    const entries: E[] = [];
    const byName = new Map<string, E>();
    const byOrigin = new Map<string, Map<string, E>>();
    const more = { prefixed: new LazyNameMap<E>(), offline: new LazyNameMap<RoutedEntry>() };
    let ofServer: Map<string, E> | undefined;
    let ofServerName: string | undefined;
    const report = nameItems(sources, strategy, kind, (name, server, originalName, item, prefixed, offline) => {
      if (offline) {
        const known = { name, server, originalName };
        more.offline.set(name, known);
        if (prefixed !== name) more.offline.setIfAbsent(prefixed, known);
        return;
      }
      const entry = toEntry({ name, server, originalName, item });
      if (prefixed !== name) more.prefixed.set(prefixed, entry);
      entries.push(entry);
      byName.set(name, entry);
      if (server !== ofServerName) {
        ofServerName = server;
        ofServer = byOrigin.get(server);
        if (ofServer === undefined) {
          ofServer = new Map();
          byOrigin.set(server, ofServer);
        }
      }
      ofServer?.set(originalName, entry);
    }, options);
    const aliases = new Map<string, E>();
    if (previous !== undefined) {
      const keep = (name: string, old: E): void => {
        if (byName.has(name)) return;
        const current = byOrigin.get(old.server)?.get(old.originalName);
        if (current !== undefined) aliases.set(name, current);
      };
      for (const [name, old] of previous.#aliases) keep(name, old);
      // A name that still routes to the same origin needs no alias (the common case of a re-list).
      for (const [name, old] of previous.#byName) if (!byName.has(name)) keep(name, old);
    }
    return new RoutedCatalog(previous === undefined ? 1 : previous.version + 1, entries, report, byName, byOrigin, aliases, more);
  }

  /** The entry an exposed name (a still-valid earlier name, or an item's prefixed form) routes to. */
  route(name: string): E | undefined {
    return this.#byName.get(name) ?? this.#aliases.get(name) ?? this.#more.prefixed.get(name);
  }

  /**
   * Whose a name is: a routable entry, else the item of a server that is not up (`offline`), named
   * from its last known list.
   */
  owner(name: string): (RoutedEntry & { offline: boolean }) | undefined {
    const live = this.route(name);
    if (live !== undefined) return { name: live.name, server: live.server, originalName: live.originalName, offline: false };
    const offline = this.#more.offline.get(name);
    return offline === undefined ? undefined : { ...offline, offline: true };
  }

  /** Entries of one server. */
  ofServer(server: string): E[] {
    return [...(this.#byOrigin.get(server)?.values() ?? [])];
  }

  /** Number of entries of one server. */
  countOf(server: string): number {
    return this.#byOrigin.get(server)?.size ?? 0;
  }

  /** What changed from `previous` to this version. */
  diffFrom(previous: RoutedCatalog<E>): CatalogDiff {
    const diff: CatalogDiff = { added: [], removed: [], renamed: [] };
    for (const [server, entries] of this.#byOrigin) {
      const old = previous.#byOrigin.get(server);
      for (const [originalName, entry] of entries) {
        const before = old?.get(originalName);
        if (before === undefined) diff.added.push(entry.name);
        else if (before.name !== entry.name) diff.renamed.push({ from: before.name, to: entry.name });
      }
    }
    for (const [server, entries] of previous.#byOrigin) {
      const current = this.#byOrigin.get(server);
      for (const [originalName, entry] of entries) if (current?.has(originalName) !== true) diff.removed.push(entry.name);
    }
    return diff;
  }
}

/**
 * @module client/routed-catalog
 * A versioned, immutable set of named items with its routing table. A name given out earlier keeps
 * routing after a rebuild renames its item (e.g. `read_file` becomes `fs__read_file` when a second
 * server adds `read_file`): it stays as an alias while its item exists and nothing else claims it.
 */

import type { NamingStrategy } from '../config/server-spec.js';
import { buildNameCatalog, type NameReport, type NameSource } from './name-catalog.js';

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
  readonly #aliases: Map<string, E>;

  private constructor(version: number, entries: E[], report: NameReport, aliases: Map<string, E>) {
    this.version = version;
    this.entries = entries;
    this.report = report;
    this.#byName = new Map(entries.map((entry) => [entry.name, entry]));
    this.#aliases = aliases;
  }

  /** An empty catalog. */
  static empty<E extends RoutedEntry>(strategy: NamingStrategy): RoutedCatalog<E> {
    return new RoutedCatalog<E>(0, [], { strategy, renames: [], collisions: [], filtered: [] }, new Map());
  }

  /**
   * Builds the next version from each server's items. `toEntry` makes the public entry of one item.
   * Throws ConfigError for collisions under strategy `none`.
   */
  static build<T extends { name: string }, E extends RoutedEntry>(
    sources: ReadonlyArray<NameSource<T>>,
    strategy: NamingStrategy,
    toEntry: (named: { name: string; server: string; originalName: string; item: T }) => E,
    previous?: RoutedCatalog<E>,
    kind?: string,
  ): RoutedCatalog<E> {
    const { items, report } = buildNameCatalog(sources, strategy, kind);
    const entries = items.map(toEntry);
    const byName = new Map(entries.map((entry) => [entry.name, entry]));
    const byOrigin = new Map(entries.map((entry) => [originKey(entry), entry]));
    const aliases = new Map<string, E>();
    if (previous !== undefined) {
      for (const [name, old] of [...previous.#aliases, ...previous.#byName]) {
        if (byName.has(name)) continue;
        const current = byOrigin.get(originKey(old));
        if (current !== undefined) aliases.set(name, current);
      }
    }
    return new RoutedCatalog(previous === undefined ? 1 : previous.version + 1, entries, report, aliases);
  }

  /** The entry an exposed name (or a still-valid earlier name) routes to. */
  route(name: string): E | undefined {
    return this.#byName.get(name) ?? this.#aliases.get(name);
  }

  /** Entries of one server. */
  ofServer(server: string): E[] {
    return this.entries.filter((entry) => entry.server === server);
  }

  /** What changed from `previous` to this version. */
  diffFrom(previous: RoutedCatalog<E>): CatalogDiff {
    const diff: CatalogDiff = { added: [], removed: [], renamed: [] };
    const previousByOrigin = new Map(previous.entries.map((entry) => [originKey(entry), entry]));
    const currentOrigins = new Set(this.entries.map(originKey));
    for (const entry of this.entries) {
      const old = previousByOrigin.get(originKey(entry));
      if (old === undefined) diff.added.push(entry.name);
      else if (old.name !== entry.name) diff.renamed.push({ from: old.name, to: entry.name });
    }
    for (const entry of previous.entries) if (!currentOrigins.has(originKey(entry))) diff.removed.push(entry.name);
    return diff;
  }
}

function originKey(entry: RoutedEntry): string {
  return `${entry.server}\0${entry.originalName}`;
}

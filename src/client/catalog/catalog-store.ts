/**
 * @module client/catalog/catalog-store
 * The last known tool names of each server, on disk, so names can be decided from every configured
 * server — not only from those that are up — and a one-tool command can start only the server that
 * owns the tool. One small JSON file per server and spec (`<server>.<hash of the normalized
 * spec>.json`): a changed entry is a new file, and the server's earlier files still count as its
 * likely names until it lists again. Writes go to a temp file, then rename; an unreadable or corrupt
 * file is ignored (debug log): the cache can only ever make names more conservative.
 */

import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerSpec } from '../../config/server-spec.js';
import type { Logger } from '../../logger.js';
import { SerialByKey } from '../../util/serial-by-key.js';
import { sanitizeName } from './name-catalog.js';

const FORMAT_VERSION = 1;
const KEY_LENGTH = 24;

/** What is on disk for one server. */
export interface KnownToolNames {
  tools: string[];
  /** True when the file is of this very spec; false when only earlier specs of the server were found. */
  exact: boolean;
}

/**
 * Where a client keeps each server's last known tool names: {@link FileCatalogStore} on disk, or the
 * gateway registry's store (one row per spec hash, shared by every user of that spec).
 * Implementations never throw: a store that cannot be read or written only makes names more conservative.
 */
export interface CatalogStore {
  /** The last known tool names of each spec that has any, by server name. */
  load(specs: readonly ServerSpec[]): Promise<Map<string, KnownToolNames>>;
  /** Records a server's tool names (callers do not wait; failures are logged). */
  save(spec: ServerSpec, tools: readonly string[]): Promise<void>;
  /** Resolves once every write started so far is stored (or failed). */
  flush(): Promise<void>;
}

/** Per-server tool names in a directory (e.g. `.switchboard/catalog` beside the config file). */
export class FileCatalogStore implements CatalogStore {
  readonly dir: string;
  readonly #logger: Logger;
  /** What each file holds (as written or read), to skip writes that change nothing. */
  readonly #written = new Map<string, string>();
  /** One write at a time per file. */
  readonly #writing = new SerialByKey();

  constructor(dir: string, logger: Logger) {
    this.dir = dir;
    this.#logger = logger;
  }

  /** The key of a spec: a hash of its normalized form, keys sorted (never the spec itself: it holds secrets). */
  static keyOf(spec: ServerSpec): string {
    return catalogKeyOf(spec);
  }

  /** The last known tool names of each spec that has any, by server name. Never throws. */
  async load(specs: readonly ServerSpec[]): Promise<Map<string, KnownToolNames>> {
    const known = new Map<string, KnownToolNames>();
    if (specs.length === 0) return known;
    let files: string[];
    try {
      files = (await readdir(this.dir)).filter((file) => file.endsWith('.json'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.#logger.debug('the catalog cache cannot be read; deciding names without it', { dir: this.dir, error: String(error) });
      return known;
    }
    await Promise.all(
      specs.map(async (spec) => {
        const exactFile = fileOf(spec);
        const stem = `${sanitizeName(spec.name)}.`;
        const own = files.filter((file) => file.startsWith(stem) && file.split('.').length === stem.split('.').length + 1);
        const exact = own.includes(exactFile) ? await this.#read(exactFile, spec.name) : undefined;
        if (exact !== undefined) {
          known.set(spec.name, { tools: exact, exact: true });
          return;
        }
        // Only earlier specs of this server: their names are what it will most likely offer again.
        const earlier = await Promise.all(own.filter((file) => file !== exactFile).map((file) => this.#read(file, spec.name)));
        const names = [...new Set(earlier.flatMap((list) => list ?? []))];
        if (earlier.some((list) => list !== undefined)) known.set(spec.name, { tools: names, exact: false });
      }),
    );
    return known;
  }

  /** Records a server's tool names (in the background; failures are logged at debug). */
  save(spec: ServerSpec, tools: readonly string[]): Promise<void> {
    const file = fileOf(spec);
    return this.#writing.run(file, () => this.#write(file, spec.name, tools));
  }

  /** Resolves once every write started so far is on disk (or failed). */
  async flush(): Promise<void> {
    await this.#writing.flush();
  }

  async #write(file: string, server: string, tools: readonly string[]): Promise<void> {
    const sorted = [...tools].sort();
    const signature = JSON.stringify(sorted);
    if (this.#written.get(file) === signature) return;
    const path = join(this.dir, file);
    const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      await mkdir(this.dir, { recursive: true });
      await writeFile(temporary, `${JSON.stringify({ version: FORMAT_VERSION, server, savedAt: new Date().toISOString(), tools: sorted }, null, 1)}\n`);
      await rename(temporary, path);
      this.#written.set(file, signature);
    } catch (error) {
      this.#logger.debug('the catalog cache could not be written; names stay conservative for this server next time', { server, dir: this.dir, error: String(error) });
      await rm(temporary, { force: true }).catch(() => {});
    }
  }

  async #read(file: string, server: string): Promise<string[] | undefined> {
    try {
      const parsed: unknown = JSON.parse(await readFile(join(this.dir, file), 'utf8'));
      const tools = toolsOf(parsed, server);
      if (tools === undefined) this.#logger.debug('ignoring a catalog cache file that is not in the expected shape', { file: join(this.dir, file) });
      else this.#written.set(file, JSON.stringify([...tools].sort()));
      return tools;
    } catch (error) {
      this.#logger.debug('ignoring a catalog cache file that cannot be read', { file: join(this.dir, file), error: String(error) });
      return undefined;
    }
  }
}

/** The key of a spec: a hash of its normalized form, keys sorted (never the spec itself: it holds secrets). */
export function catalogKeyOf(spec: ServerSpec): string {
  const { createHash } = process.getBuiltinModule('node:crypto');
  return createHash('sha256').update(stableJson(spec)).digest('hex').slice(0, KEY_LENGTH);
}

function fileOf(spec: ServerSpec): string {
  return `${sanitizeName(spec.name)}.${catalogKeyOf(spec)}.json`;
}

/** The tool names of a parsed file, or undefined when it is not a file of this server in this format. */
function toolsOf(parsed: unknown, server: string): string[] | undefined {
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const record: Record<string, unknown> = { ...parsed };
  const tools = record.tools;
  if (record.version !== FORMAT_VERSION || record.server !== server || !Array.isArray(tools)) return undefined;
  const names = tools.filter((name): name is string => typeof name === 'string');
  return names.length === tools.length ? names : undefined;
}

/** JSON with object keys sorted, so equal specs hash alike whatever the order they were written in. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
    const sorted: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) sorted[key] = entry;
    return sorted;
  });
}

/**
 * @module registry/registry-catalog-store
 * The gateway's {@link CatalogStore}: each server spec's last known tool names in the registry
 * database (`tool_catalog`), so after a restart a user whose server fails to start sees the names of
 * before. A row is keyed by a digest of the normalized spec under the registry's secret key — the
 * spec holds secrets, and a plain hash of it could be checked against guesses — so every user of the
 * same spec (a shared server) shares one row; nothing but the names, the digest and the time is
 * stored. Never throws: a failed read or write is logged and only makes names more conservative.
 */

import type { Kysely } from 'kysely';
import { stableJson, type CatalogStore, type KnownToolNames } from '../client/catalog/catalog-store.js';
import type { ServerSpec } from '../config/server-spec.js';
import type { Logger } from '../logger.js';
import { SerialByKey } from '../util/serial-by-key.js';
import type { RegistryDatabase } from './database-schema.js';
import { timestamp } from './registry-context.js';
import type { SecretBox } from './secret-box.js';

const DIGEST_PURPOSE = 'tool-catalog';
/** Specs per `where spec_hash in (…)` query, well under either backend's parameter limit. */
const LOAD_BATCH = 500;

/** Last known tool names per server spec, in the registry. */
export class RegistryCatalogStore implements CatalogStore {
  readonly #db: Kysely<RegistryDatabase>;
  readonly #box: SecretBox;
  readonly #logger: Logger;
  /** What each row holds (as written or read), to skip writes that change nothing. */
  readonly #stored = new Map<string, string>();
  /** One write at a time per row. */
  readonly #writing = new SerialByKey();

  constructor(context: { db: Kysely<RegistryDatabase>; box: SecretBox; logger: Logger }) {
    this.#db = context.db;
    this.#box = context.box;
    this.#logger = context.logger;
  }

  /** The row key of a spec. */
  keyOf(spec: ServerSpec): string {
    return this.#box.digest(stableJson(spec), DIGEST_PURPOSE);
  }

  async load(specs: readonly ServerSpec[]): Promise<Map<string, KnownToolNames>> {
    const known = new Map<string, KnownToolNames>();
    const byKey = new Map(specs.map((spec) => [this.keyOf(spec), spec.name]));
    const keys = [...byKey.keys()];
    try {
      for (let start = 0; start < keys.length; start += LOAD_BATCH) {
        const rows = await this.#db.selectFrom('tool_catalog').select(['spec_hash', 'tools']).where('spec_hash', 'in', keys.slice(start, start + LOAD_BATCH)).execute();
        for (const row of rows) {
          const server = byKey.get(row.spec_hash);
          const tools = toolsOf(row.tools);
          if (server === undefined) continue;
          if (tools === undefined) {
            this.#logger.debug('ignoring a tool_catalog row that is not in the expected shape', { server });
            continue;
          }
          this.#stored.set(row.spec_hash, JSON.stringify(tools));
          known.set(server, { tools, exact: true });
        }
      }
    } catch (error) {
      this.#logger.warn('the registry tool catalog cannot be read; deciding names without it', { error: String(error) });
    }
    return known;
  }

  save(spec: ServerSpec, tools: readonly string[]): Promise<void> {
    const key = this.keyOf(spec);
    return this.#writing.run(key, () => this.#write(key, spec.name, tools));
  }

  async flush(): Promise<void> {
    await this.#writing.flush();
  }

  async #write(key: string, server: string, tools: readonly string[]): Promise<void> {
    const value = JSON.stringify([...new Set(tools)].sort());
    if (this.#stored.get(key) === value) return;
    const row = { spec_hash: key, tools: value, updated_at: timestamp() };
    try {
      await this.#db
        .insertInto('tool_catalog')
        .values(row)
        .onConflict((conflict) => conflict.column('spec_hash').doUpdateSet({ tools: value, updated_at: row.updated_at }))
        .execute();
      this.#stored.set(key, value);
    } catch (error) {
      this.#logger.warn('the registry tool catalog could not be written; names stay conservative for this server after a restart', { server, error: String(error) });
    }
  }
}

/** The names of a stored row, or undefined when it is not a JSON array of strings. */
function toolsOf(text: string): string[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  const names = parsed.filter((name): name is string => typeof name === 'string');
  return names.length === parsed.length ? names : undefined;
}

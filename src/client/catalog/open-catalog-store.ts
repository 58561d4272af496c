/**
 * @module client/catalog/open-catalog-store
 * The store of each server's last known tool names that `catalogCache` asks for: a directory (a
 * file per server, loaded on first use), a store the caller gives (the registry's), or none.
 */

import { noopLogger } from '../../logger.js';
import type { MultiServerClientOptions } from '../multi-server-client-options.js';
import type { CatalogStore } from './catalog-store.js';

/** The catalog store of `options.catalogCache`, if any. */
export async function openCatalogStore(options: Pick<MultiServerClientOptions, 'catalogCache' | 'logger'>): Promise<CatalogStore | undefined> {
  if (options.catalogCache === undefined || options.catalogCache === false) return undefined;
  if (typeof options.catalogCache !== 'string') return options.catalogCache;
  const { FileCatalogStore } = await import('./catalog-store.js');
  return new FileCatalogStore(options.catalogCache, options.logger ?? noopLogger);
}

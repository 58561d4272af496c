/**
 * @module cli/open-registry
 * Opens the registry the flags name: `--db`, else `$SWITCHBOARD_DB`, else
 * `./.switchboard/switchboard.db`. Imported lazily: commands that never touch the registry never
 * load the database drivers.
 */

import type { Logger } from '../logger.js';
import type { ServerRegistry } from '../registry/server-registry.js';

/** Opens the registry for one CLI command (no change watching: the command is short-lived). */
export async function openRegistryForCli(db: string | undefined, logger: Logger): Promise<ServerRegistry> {
  const { ServerRegistry } = await import('../registry/server-registry.js');
  return ServerRegistry.open({ ...(db === undefined ? {} : { db }), logger, watch: false });
}

/** Runs `task` with an open registry and closes it after. */
export async function withRegistry<T>(db: string | undefined, logger: Logger, task: (registry: ServerRegistry) => Promise<T>): Promise<T> {
  const registry = await openRegistryForCli(db, logger);
  try {
    return await task(registry);
  } finally {
    await registry.close();
  }
}

/**
 * @module config/lazy-config
 * `loadConfig` and `normalizeConfig` as the public API exports them, loading the config modules (and
 * zod, ~60-100 ms and ~11 MiB) on first use instead of at `import('mcp-switchboard')`: a program that
 * hands `ServerConnection` a spec, or a process on the lean stdio path, never loads them.
 *
 * `normalizeConfig` is synchronous, so it loads its module with `require` (Node ≥ 20.19 requires ES
 * modules synchronously; this package's `engines` says so). Under a runner that executes the
 * TypeScript sources (vitest), `require` cannot load them: the runner's setup registers the module
 * instead (test/helpers/register-config-module.ts).
 */

import { createRequire } from 'node:module';
import type { LoadConfigOptions, LoadedConfig } from './load-config.js';
import type * as NormalizeConfigModule from './normalize-config.js';
import type { NormalizeConfigOptions, NormalizedConfig } from './normalize-config.js';

/** Where a runner that cannot `require` the sources puts the loaded normalize-config module. */
export const NORMALIZE_CONFIG_MODULE = Symbol.for('mcp-switchboard.config.normalize-config');

let normalizeModule: typeof NormalizeConfigModule | undefined;

function loadNormalizeModule(): typeof NormalizeConfigModule {
  if (normalizeModule !== undefined) return normalizeModule;
  const registered = (globalThis as Record<symbol, unknown>)[NORMALIZE_CONFIG_MODULE];
  const loaded = registered ?? createRequire(import.meta.url)('./normalize-config.js');
  if (typeof (loaded as { normalizeConfig?: unknown } | null)?.normalizeConfig !== 'function') {
    throw new Error('mcp-switchboard: the config module could not be loaded (normalizeConfig is missing)');
  }
  normalizeModule = loaded as typeof NormalizeConfigModule;
  return normalizeModule;
}

/**
 * Validates and normalizes a config object (the shape of a config file) into server specs. Throws
 * `ConfigError` with every issue as `dotted.path: message`. See config/normalize-config.
 */
export function normalizeConfig(raw: unknown, options: NormalizeConfigOptions = {}): NormalizedConfig {
  return loadNormalizeModule().normalizeConfig(raw, options);
}

/** Finds, reads and normalizes the config file. See config/load-config. */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const module = await import('./load-config.js');
  return module.loadConfig(options);
}

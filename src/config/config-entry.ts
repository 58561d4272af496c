/**
 * @module config/config-entry
 * The config functions as the public API exports them. They load the config modules (and zod, about
 * 100 ms and 14 MiB) on first use rather than at `import('mcp-switchboard')`: a program that hands
 * `ServerConnection` a spec never pays for them.
 */

import type { LoadConfigOptions, LoadedConfig } from './load-config.js';
import type { NormalizeConfigOptions, NormalizedConfig } from './normalize-config.js';

/** Reads, parses, expands and validates a config file (see `config/load-config`). */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  return (await import('./load-config.js')).loadConfig(options);
}

/**
 * Validates and normalizes a config object; rejects with a `ConfigError` listing every problem (see
 * `config/normalize-config`).
 */
export async function normalizeConfig(raw: unknown, options: NormalizeConfigOptions = {}): Promise<NormalizedConfig> {
  return (await import('./normalize-config.js')).normalizeConfig(raw, options);
}

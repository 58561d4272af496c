/**
 * @module client/normalize-config-input
 * What the client makes of the config it is given: a config file's shape is normalized (zod, loaded
 * on first use), and an already normalized one (`servers: [spec, …]`) is checked — a raw entry there
 * is refused with its path, never run half-formed.
 */

import { checkNormalizedConfig } from '../config/check-normalized-config.js';
import type { NormalizedConfig } from '../config/normalize-config.js';
import type { ConfigInput } from './multi-server-client-options.js';

/** The config to run and the warnings found while reading it; throws `ConfigError` when it is invalid. */
export async function normalizeConfigInput(input: ConfigInput): Promise<NormalizedConfig> {
  const servers = (input as { servers?: unknown }).servers;
  if (Array.isArray(servers)) return { config: checkNormalizedConfig(input as { servers: unknown[] }), warnings: [] };
  // Loaded on first use: config validation brings zod, which a program passing specs never needs.
  return (await import('../config/normalize-config.js')).normalizeConfig(input);
}

/**
 * @module cli/connect-config
 * Loads the config named by the flags and connects its servers, as every client command does.
 */

import { dirname, join } from 'node:path';
import { ConfigError, formatConfigIssue } from '../errors.js';
import type { Logger } from '../logger.js';
import type { MultiServerClient } from '../client/multi-server-client.js';
import type { SwitchboardConfig } from '../config/server-spec.js';
import { loadConfig, type LoadedConfig } from '../config/load-config.js';
import type { AskInput } from '../config/config-inputs.js';
import { terminalInputAsker } from './ask-input.js';
import { usageError } from './cli-error.js';

/** Flags shared by the commands that read a config. */
export interface ConfigFlags {
  config?: string;
  /** Only these servers. */
  server?: string[];
  logger: Logger;
}

/** Loads the config, prints its warnings, and keeps only the servers asked for. */
export async function loadConfigForCli(flags: ConfigFlags): Promise<LoadedConfig> {
  const loaded = await loadWholeConfig(flags);
  const only = flags.server ?? [];
  if (only.length === 0) return loaded;
  const config: SwitchboardConfig = { ...loaded.config, servers: loaded.config.servers.filter((spec) => only.includes(spec.name)) };
  return { ...loaded, config };
}

/** Loads the config and prints its warnings; `--server` names are checked, but every server is kept. */
async function loadWholeConfig(flags: ConfigFlags): Promise<LoadedConfig> {
  const only = flags.server ?? [];
  const ask = terminalInputAsker();
  // Asked only for the servers that will start.
  const askInput: AskInput | undefined = ask === undefined ? undefined : async (request) => (only.length === 0 || request.servers.some((name) => only.includes(name)) ? ask(request) : undefined);
  const loaded = await loadConfig({ ...(flags.config === undefined ? {} : { configPath: flags.config }), ...(askInput === undefined ? {} : { askInput }) });
  for (const warning of loaded.warnings) flags.logger.warn(formatConfigIssue(warning));
  const names = new Set(loaded.config.servers.map((spec) => spec.name));
  const unknown = only.filter((name) => !names.has(name));
  if (unknown.length > 0) {
    throw usageError(`unknown server${unknown.length === 1 ? '' : 's'} ${unknown.map((name) => `"${name}"`).join(', ')}; the config has ${[...names].join(', ') || 'none'}`);
  }
  return loaded;
}

/** Where the CLI keeps each server's last known tool names: `.switchboard/catalog` beside the config file. */
export function catalogCacheDir(configSource: string): string {
  return join(dirname(configSource), '.switchboard', 'catalog');
}

/**
 * Connects the enabled servers of the config — those named by `--server`, or all; with `start: false`
 * none yet (the caller starts what it needs). No background retries: the CLI is short-lived. Names
 * are decided from the whole config and the catalog cache, so `--server` never changes them.
 */
export async function connectForCli(flags: ConfigFlags, options: { start?: boolean } = {}): Promise<MultiServerClient> {
  const { config, source } = await loadWholeConfig(flags);
  const only = flags.server ?? [];
  const selected = only.length === 0 ? config.servers : config.servers.filter((spec) => only.includes(spec.name));
  if (selected.every((spec) => !spec.enabled)) throw new ConfigError([{ path: 'mcpServers', message: only.length === 0 ? 'every server is disabled' : 'every server named by --server is disabled' }]);
  const { MultiServerClient } = await import('../client/multi-server-client.js');
  const { FileOAuthTokenStore } = await import('../auth/file-oauth-token-store.js');
  // Tokens stored by `switchboard login` are used by every command; no browser opens from here.
  return MultiServerClient.connect(config, {
    logger: flags.logger,
    retryFailedServers: false,
    oauth: { store: new FileOAuthTokenStore() },
    catalogCache: catalogCacheDir(source),
    autoStart: options.start === false ? false : only.length === 0 ? true : only,
  });
}

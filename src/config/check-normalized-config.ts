/**
 * @module config/check-normalized-config
 * The check of a config that is already normalized (`servers: [spec, …]`, the shape `normalizeConfig`
 * returns), as a program may pass one straight to the client. Without zod: a program passing specs
 * never loads it. It checks the shape each spec must have for the client to run it, and fills the
 * two top-level defaults; it does not re-normalize.
 */

import { ConfigError, type ConfigIssue } from '../errors.js';
import type { SwitchboardConfig } from './server-spec.js';

const NAMING = new Set(['on-conflict', 'prefix', 'none']);
const ON_SERVER_ERROR = new Set(['skip', 'throw']);
const HTTP_TRANSPORTS = new Set(['auto', 'http', 'sse']);
const HINT = 'pass specs as normalizeConfig returns them, or a config file\'s shape (`mcpServers: { name: { command: … } }`) to have them normalized';

/**
 * Returns `config` as a {@link SwitchboardConfig} (with `naming` and `onServerError` defaulted when
 * absent); throws a {@link ConfigError} listing every problem, each at its path (`servers[0].command`).
 */
export function checkNormalizedConfig(config: { servers: unknown[] } & Record<string, unknown>, source?: string): SwitchboardConfig {
  const issues: ConfigIssue[] = [];
  const problem = (path: string, message: string): void => void issues.push({ path, message, hint: HINT });
  if (config.naming !== undefined && !NAMING.has(config.naming as string)) problem('naming', `must be one of ${[...NAMING].join(', ')}`);
  if (config.onServerError !== undefined && !ON_SERVER_ERROR.has(config.onServerError as string)) problem('onServerError', 'must be skip or throw');
  const starts = config.maxConcurrentStarts;
  if (starts !== undefined && !(typeof starts === 'number' && Number.isInteger(starts) && starts > 0)) problem('maxConcurrentStarts', 'must be a positive integer');
  const names = new Map<string, number>();
  config.servers.forEach((spec, index) => {
    const at = `servers[${index}]`;
    if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return problem(at, 'must be a server spec (an object)');
    const entry = spec as Record<string, unknown>;
    if (typeof entry.name !== 'string' || entry.name.trim() === '') problem(`${at}.name`, 'must be a non-empty string');
    else if (names.has(entry.name)) problem(`${at}.name`, `duplicate server name "${entry.name}", also servers[${names.get(entry.name)}]`);
    else names.set(entry.name, index);
    if (typeof entry.enabled !== 'boolean') problem(`${at}.enabled`, 'must be true or false');
    // A spec with unset variables fails only its own server, at start, saying which (see unresolved-server-spec.ts).
    if (Array.isArray(entry.unresolved) && entry.unresolved.length > 0) return;
    for (const field of ['startupTimeoutMs', 'callTimeoutMs']) {
      const value = entry[field];
      if (!(typeof value === 'number' && Number.isFinite(value) && value > 0)) problem(`${at}.${field}`, 'must be a positive number of milliseconds');
    }
    const protocol = entry.protocol;
    if (protocol !== 'legacy' && protocol !== 'auto' && !(typeof protocol === 'object' && protocol !== null && typeof (protocol as { pin?: unknown }).pin === 'string')) problem(`${at}.protocol`, 'must be legacy, auto or { pin: version }');
    if (entry.prefix !== undefined && typeof entry.prefix !== 'string') problem(`${at}.prefix`, 'must be a string');
    for (const field of ['include', 'exclude']) if (entry[field] !== undefined && !isStrings(entry[field])) problem(`${at}.${field}`, 'must be a list of strings');
    if (entry.type === 'stdio') {
      if (typeof entry.command !== 'string' || entry.command === '') problem(`${at}.command`, 'must be a non-empty string');
      if (!isStrings(entry.args)) problem(`${at}.args`, 'must be a list of strings');
      if (!isStringRecord(entry.env)) problem(`${at}.env`, 'must be an object of strings');
      if (!isStrings(entry.inheritEnv)) problem(`${at}.inheritEnv`, 'must be a list of strings');
    } else if (entry.type === 'http') {
      if (typeof entry.url !== 'string' || !URL.canParse(entry.url)) problem(`${at}.url`, 'must be an absolute URL');
      if (!isStringRecord(entry.headers)) problem(`${at}.headers`, 'must be an object of strings');
      if (!HTTP_TRANSPORTS.has(entry.transport as string)) problem(`${at}.transport`, 'must be auto, http or sse');
    } else {
      problem(`${at}.type`, 'must be stdio or http');
    }
  });
  if (issues.length > 0) throw new ConfigError(issues, [], source);
  const checked = config as unknown as SwitchboardConfig;
  if (config.naming !== undefined && config.onServerError !== undefined) return checked;
  return { ...checked, naming: checked.naming ?? 'on-conflict', onServerError: checked.onServerError ?? 'skip' };
}

function isStrings(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isStringRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((item) => typeof item === 'string');
}

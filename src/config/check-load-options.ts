/**
 * @module config/check-load-options
 * `loadConfig`'s options are checked at the edge: a misspelt option (`path` for `configPath`) must not
 * be ignored, or the working directory's config is loaded in its place without a word.
 */

import { ErrorCode, SwitchboardError } from '../errors.js';
import type { LoadConfigOptions } from './load-config.js';

/** Every option of `loadConfig`, in the order the error lists them. */
const OPTION_NAMES = ['configPath', 'cwd', 'env', 'inputs', 'askInput'] as const satisfies ReadonlyArray<keyof LoadConfigOptions>;
// Fails to compile when LoadConfigOptions gains an option that is not listed above.
const EVERY_OPTION_LISTED: [Exclude<keyof LoadConfigOptions, (typeof OPTION_NAMES)[number]>] extends [never] ? true : never = true;
void EVERY_OPTION_LISTED;

/** Names people reach for, and the option they mean. */
const MEANT: Readonly<Record<string, { option: (typeof OPTION_NAMES)[number]; what: string }>> = {
  path: { option: 'configPath', what: 'to name the config file' },
  file: { option: 'configPath', what: 'to name the config file' },
  config: { option: 'configPath', what: 'to name the config file' },
  configFile: { option: 'configPath', what: 'to name the config file' },
  filename: { option: 'configPath', what: 'to name the config file' },
  dir: { option: 'cwd', what: 'for the folder searched for a config file' },
  baseDir: { option: 'cwd', what: 'for the folder searched for a config file' },
};

/** Throws `INVALID_ARGUMENT` for options that are not `loadConfig`'s or have the wrong type. */
export function checkLoadConfigOptions(options: unknown): asserts options is LoadConfigOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    const example = typeof options === 'string' ? `{ configPath: '${options}' }` : "{ configPath: 'switchboard.yaml' }";
    throw invalid(`options must be an object; to load a file, pass ${example}`);
  }
  for (const [name, value] of Object.entries(options)) {
    if (!(OPTION_NAMES as readonly string[]).includes(name)) {
      const meant = Object.hasOwn(MEANT, name) ? MEANT[name] : undefined;
      throw invalid(
        meant === undefined ? `unknown option \`${name}\`; the options are ${OPTION_NAMES.join(', ')}` : `unknown option \`${name}\`; use \`${meant.option}\` ${meant.what}`,
        name,
      );
    }
    if (value === undefined) continue;
    if ((name === 'configPath' || name === 'cwd') && typeof value !== 'string') {
      throw invalid(`\`${name}\` must be a string (${name === 'cwd' ? 'a folder' : 'a file path'}), got ${typeOf(value)}`, name);
    }
    if (name === 'env' && (typeof value !== 'object' || value === null || Array.isArray(value) || Object.values(value).some((entry) => entry !== undefined && typeof entry !== 'string'))) {
      throw invalid(`\`env\` must be an object of strings, got ${typeOf(value)}`, name);
    }
    if (name === 'inputs' && (typeof value !== 'object' || value === null || Array.isArray(value) || Object.values(value).some((entry) => typeof entry !== 'string'))) {
      throw invalid(`\`inputs\` must be an object of strings (input id → value), got ${typeOf(value)}`, name);
    }
    if (name === 'askInput' && typeof value !== 'function') {
      throw invalid(`\`askInput\` must be a function, got ${typeOf(value)}`, name);
    }
  }
}

function invalid(message: string, option?: string): SwitchboardError {
  return new SwitchboardError(ErrorCode.InvalidArgument, `loadConfig: ${message}`, option === undefined ? {} : { details: { option } });
}

function typeOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/**
 * @module cli/registry-args
 * Flags of the registry commands, parsed with `node:util` `parseArgs` rather than cac: values stay
 * strings exactly as typed (an API key `00123` or `1e3` must not become a number), and a value that
 * starts with a dash must be written `--arg=-y`, which parseArgs says when it is forgotten.
 */

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { usageError } from './cli-error.js';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** Flags every registry command accepts (the CLI's global ones). */
const GLOBAL_OPTIONS: OptionsConfig = {
  db: { type: 'string' },
  json: { type: 'boolean' },
  debug: { type: 'boolean' },
  verbose: { type: 'boolean' },
  quiet: { type: 'boolean' },
  config: { type: 'string' },
};

/** Parsed flags: words in order, and option values by name. */
export interface CommandArgs {
  positionals: string[];
  values: Readonly<Record<string, unknown>>;
}

/** Parses `argv` (the whole command line, command word included) with the command's `options`. */
export function parseCommandArgs(argv: readonly string[], options: OptionsConfig): CommandArgs {
  try {
    const { positionals, values } = parseArgs({ args: [...argv], options: { ...GLOBAL_OPTIONS, ...options }, allowPositionals: true, strict: true });
    return { positionals, values };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      throw usageError(`${(error as Error).message.split('\n').join(' ')}; run switchboard --help`);
    }
    throw error;
  }
}

/** A string flag, or undefined. */
export function stringFlag(args: CommandArgs, name: string): string | undefined {
  const value = args.values[name];
  if (Array.isArray(value)) return value.map(String).at(-1);
  return typeof value === 'string' ? value : undefined;
}

/** A string flag that must be there. */
export function requiredFlag(args: CommandArgs, name: string, why: string): string {
  const value = stringFlag(args, name);
  if (value === undefined || value === '') throw usageError(`--${name} is required ${why}`);
  return value;
}

/** Every value of a repeatable flag. */
export function listFlag(args: CommandArgs, name: string): string[] {
  const value = args.values[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

/** A boolean flag. */
export function booleanFlag(args: CommandArgs, name: string): boolean {
  return args.values[name] === true;
}

/** `KEY=VALUE` (or `KEY: VALUE` with `separator` `:`) pairs of a repeatable flag. */
export function pairsFlag(args: CommandArgs, name: string, separator: '=' | ':'): Record<string, string> {
  const result: Record<string, string> = {};
  for (const item of listFlag(args, name)) {
    const index = item.indexOf(separator);
    const key = index <= 0 ? '' : item.slice(0, index).trim();
    // The value is not echoed: it may be a secret.
    if (key === '') throw usageError(`--${name} takes ${separator === '=' ? 'NAME=VALUE' : '"Name: Value"'}, and one of the values has no name before "${separator}"`);
    result[key] = separator === ':' ? item.slice(index + 1).trim() : item.slice(index + 1);
  }
  return result;
}

/** A positive integer flag. */
export function integerFlag(args: CommandArgs, name: string): number | undefined {
  const value = stringFlag(args, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw usageError(`--${name} must be a whole number, got "${value}"`);
  return Number(value);
}

/** `true`/`false` flag. */
export function truthFlag(args: CommandArgs, name: string): boolean | undefined {
  const value = stringFlag(args, name);
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'yes') return true;
  if (value === 'false' || value === 'no') return false;
  throw usageError(`--${name} takes true or false, got "${value}"`);
}

/** Refuses extra words after `expected` positionals. */
export function checkPositionals(args: CommandArgs, expected: number, usage: string): void {
  if (args.positionals.length > expected) throw usageError(`unexpected "${args.positionals[expected] ?? ''}"; usage: ${usage}`);
}

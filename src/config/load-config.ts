/**
 * @module config/load-config
 * Finds and reads a config file: `--config FILE`, else `$SWITCHBOARD_CONFIG`, else the first of
 * `switchboard.yaml`, `switchboard.json`, `.mcp.json`, `mcp.json` in the working directory.
 */

import { access, readFile } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { ConfigError, type ConfigIssue } from '../errors.js';
import { checkLoadConfigOptions } from './check-load-options.js';
import { askForInputs, type AskInput } from './config-inputs.js';
import { normalizeConfig, type NormalizedConfig } from './normalize-config.js';

/** File names looked for, in order, when no config is named. */
export const DEFAULT_CONFIG_FILES = ['switchboard.yaml', 'switchboard.yml', 'switchboard.json', '.mcp.json', 'mcp.json'] as const;

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** An explicit file (`--config`). */
  configPath?: string;
  /** @default process.cwd() */
  cwd?: string;
  /** @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /** Values of `${input:ID}` (VS Code `inputs`), by id; they win over `SWITCHBOARD_INPUT_<ID>`. */
  inputs?: Readonly<Record<string, string>>;
  /** Asks for each input an enabled server uses and nothing gives (the CLI asks on a terminal). */
  askInput?: AskInput;
}

/** A loaded config, where it came from, and its warnings. */
export interface LoadedConfig extends NormalizedConfig {
  source: string;
}

/**
 * Reads, parses, expands and validates a config file. Throws {@link ConfigError} with every problem
 * of the file, and `INVALID_ARGUMENT` for an option that is not one of {@link LoadConfigOptions}
 * (e.g. `path` for `configPath`), which would otherwise be ignored.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  checkLoadConfigOptions(options);
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const source = await findConfigFile(options.configPath ?? env.SWITCHBOARD_CONFIG, cwd);
  let text: string;
  try {
    text = await readFile(source, 'utf8');
  } catch (error) {
    throw new ConfigError([{ path: '', message: `cannot read ${source}: ${(error as NodeJS.ErrnoException).code ?? String(error)}` }], [], source);
  }
  const raw = await parseConfigText(text, source);
  const inputs = options.askInput === undefined ? (options.inputs ?? {}) : await askForInputs(raw, options.inputs ?? {}, env, options.askInput);
  return { ...normalizeConfig(raw, { baseDir: dirname(source), env, source, inputs }), source };
}

/** The config file to use, or a ConfigError that says where we looked. */
export async function findConfigFile(explicit: string | undefined, cwd: string): Promise<string> {
  if (explicit !== undefined && explicit !== '') {
    const path = resolve(cwd, explicit);
    if (!(await exists(path))) throw new ConfigError([{ path: '', message: `config file ${path} does not exist` }]);
    return path;
  }
  for (const name of DEFAULT_CONFIG_FILES) {
    const path = resolve(cwd, name);
    if (await exists(path)) return path;
  }
  throw new ConfigError([
    {
      path: '',
      message: `no config file found in ${cwd} (looked for ${DEFAULT_CONFIG_FILES.join(', ')})`,
      hint: 'pass --config FILE or set SWITCHBOARD_CONFIG',
    },
  ]);
}

/** Parses JSON or YAML by extension (YAML also reads JSON, so unknown extensions go through YAML). */
export async function parseConfigText(text: string, source: string): Promise<unknown> {
  const extension = extname(source).toLowerCase();
  if (extension === '.json') {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new ConfigError([jsonSyntaxIssue(text, error)], [], source);
    }
  }
  const { parseDocument } = await import('yaml');
  const document = parseDocument(text, { prettyErrors: false });
  if (document.errors.length > 0) {
    // The position is computed here rather than with prettyErrors, whose message quotes the source
    // line (which may hold a secret).
    const issues: ConfigIssue[] = document.errors.map((error) => {
      const { line, column } = lineAndColumn(text, error.pos[0]);
      return { path: '', message: `invalid YAML, line ${line}, column ${column}: ${error.message.split('\n')[0] ?? ''}` };
    });
    throw new ConfigError(issues, [], source);
  }
  return document.toJS() as unknown;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

function jsonSyntaxIssue(text: string, error: unknown): ConfigIssue {
  const message = error instanceof Error ? error.message : String(error);
  const position = /position (\d+)/.exec(message);
  if (position?.[1] !== undefined) {
    const { line, column } = lineAndColumn(text, Number(position[1]));
    return { path: '', message: `invalid JSON at line ${line}, column ${column}`, hint: 'check for a missing comma or quote' };
  }
  // V8 quotes the offending text in this message, which may hold a secret: keep only the kind of mistake.
  const token = /Unexpected token '(.)'/.exec(message)?.[1];
  return { path: '', message: `invalid JSON${token === undefined ? '' : `: unexpected ${JSON.stringify(token)}`}`, hint: 'check quotes, commas and brackets' };
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

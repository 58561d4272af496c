/**
 * @module config/config-inputs
 * VS Code's top-level `inputs` (`[{ id, type, description, password }]`) and the values of
 * `${input:ID}`: given by the program (the CLI's `--input ID=VALUE`), else the environment variable
 * {@link inputEnvName} names, else asked on a terminal by the CLI. An input without a value fails
 * only the servers that use it.
 */

import type { ConfigIssue } from '../errors.js';

/** One declared input, as VS Code writes it. */
export interface InputDeclaration {
  id: string;
  /** `promptString` or `pickString` (VS Code); anything else is treated as a string. */
  type?: string;
  description?: string;
  /** Masked when asked on a terminal. */
  password: boolean;
  /** Offered by a `pickString` input; also the answer to an empty reply. */
  default?: string;
}

const INPUT_REFERENCE = /\$\{input:([^}\s]+)\}/g;

/** The environment variable that gives input `id`: `SWITCHBOARD_INPUT_` and the id in upper case, other characters as `_`. */
export function inputEnvName(id: string): string {
  return `SWITCHBOARD_INPUT_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** The declared inputs (a malformed list is an error at `inputs`, a malformed item at `inputs.N`). */
export function inputDeclarations(raw: unknown, errors: ConfigIssue[]): Map<string, InputDeclaration> {
  const declared = new Map<string, InputDeclaration>();
  if (raw === undefined) return declared;
  if (!Array.isArray(raw)) {
    errors.push({ path: 'inputs', message: 'must be a list', hint: 'write `inputs: [{ "id": "token", "type": "promptString", "password": true }]`' });
    return declared;
  }
  raw.forEach((item: unknown, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item) || !('id' in item) || typeof item.id !== 'string' || item.id === '') {
      errors.push({ path: `inputs.${index}`, message: 'needs an `id` string', hint: 'e.g. `{ "id": "token", "type": "promptString" }`' });
      return;
    }
    const fields: Record<string, unknown> = { ...item };
    declared.set(item.id, {
      id: item.id,
      ...(typeof fields.type === 'string' ? { type: fields.type } : {}),
      ...(typeof fields.description === 'string' ? { description: fields.description } : {}),
      password: fields.password === true,
      ...(typeof fields.default === 'string' ? { default: fields.default } : {}),
    });
  });
  return declared;
}

/** Every `${input:ID}` id that occurs in the strings of `value`. */
export function referencedInputs(value: unknown, found: Set<string> = new Set()): Set<string> {
  // An explicit stack: this runs before the entry-depth check, so it must not overflow on deep input.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      for (const match of next.matchAll(INPUT_REFERENCE)) if (match[1] !== undefined) found.add(match[1]);
    } else if (Array.isArray(next)) {
      pending.push(...next);
    } else if (typeof next === 'object' && next !== null) {
      pending.push(...Object.values(next));
    }
  }
  return found;
}

/** The value of every input that has one: given values first, then the environment. */
export function inputValues(
  ids: Iterable<string>,
  given: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const id of ids) {
    const value = Object.hasOwn(given, id) ? given[id] : env[inputEnvName(id)];
    if (value !== undefined) values[id] = value;
  }
  return values;
}

/** The issue for an input without a value (names the input, never a value). */
export function missingInputIssue(path: string, id: string, declaration: InputDeclaration | undefined): ConfigIssue {
  const what = declaration?.description === undefined ? `input "${id}"` : `input "${id}" (${declaration.description})`;
  const where = `pass --input ${id}=VALUE, set ${inputEnvName(id)}, or run switchboard in a terminal to be asked`;
  return { path, message: `${what} has no value${declaration === undefined ? ' (and `inputs` does not declare it)' : ''}`, hint: where };
}

/** What a terminal prompt needs to ask for one input. */
export interface InputRequest extends InputDeclaration {
  /** The enabled servers whose entries use it. */
  servers: string[];
}

/** Asks a person for an input's value; undefined leaves it without one. */
export type AskInput = (request: InputRequest) => Promise<string | undefined>;

/**
 * The given values plus the answers to `ask` for every input that an enabled server uses and that has
 * no value yet, asked one at a time in the order they appear.
 */
export async function askForInputs(
  raw: unknown,
  given: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>>,
  ask: AskInput,
): Promise<Record<string, string>> {
  const values: Record<string, string> = { ...given };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return values;
  const top: Record<string, unknown> = { ...raw };
  const declared = inputDeclarations(top.inputs, []);
  const users = new Map<string, string[]>();
  for (const key of ['mcpServers', 'servers']) {
    const entries = top[key];
    if (typeof entries !== 'object' || entries === null || Array.isArray(entries)) continue;
    for (const [name, entry] of Object.entries(entries)) {
      if (typeof entry !== 'object' || entry === null || ('enabled' in entry && entry.enabled === false) || ('disabled' in entry && entry.disabled === true)) continue;
      for (const id of referencedInputs(entry)) users.set(id, [...(users.get(id) ?? []), name]);
    }
  }
  for (const [id, servers] of users) {
    if (Object.hasOwn(values, id) || env[inputEnvName(id)] !== undefined) continue;
    const answer = await ask({ ...(declared.get(id) ?? { id, password: false }), servers });
    if (answer !== undefined) values[id] = answer;
  }
  return values;
}

/**
 * @module cli/commands/templates
 * `switchboard templates add|list|remove`: stdio servers an admin defines and tenants instantiate
 * (`servers add NAME --user U --template T --param K=V`).
 *
 * `--param SPEC` declares one parameter: `name[?][!][:type[:pattern]]` — `?` optional, `!` secret
 * (stored encrypted, shown masked), type `string` (default), `number`, `integer`, `boolean`, or
 * `enum` with the values as `a|b|c` in place of the pattern. Use `{{name}}` in `--arg` and `--env`.
 */

import { readFile } from 'node:fs/promises';
import type { Logger } from '../../logger.js';
import type { RegisteredTemplate } from '../../registry/registry-types.js';
import type { ServerTemplateInput, TemplateParameter } from '../../registry/server-template.js';
import { unknownActionError, usageError } from '../cli-error.js';
import { withRegistry } from '../open-registry.js';
import { style, writeJson, writeResult } from '../output.js';
import { booleanFlag, checkPositionals, listFlag, pairsFlag, parseCommandArgs, stringFlag, type CommandArgs } from '../registry-args.js';

const USAGE =
  'switchboard templates add NAME (--command C [--arg A]… [--env K=V]… [--param SPEC]… [--description D] | --definition JSON|@file) | templates list [--json] | templates remove NAME';
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'enum']);

/** Runs `switchboard templates …` from the command line. */
export async function templates(argv: readonly string[], logger: Logger): Promise<void> {
  const args = parseCommandArgs(argv, {
    command: { type: 'string' },
    arg: { type: 'string', multiple: true },
    env: { type: 'string', multiple: true },
    param: { type: 'string', multiple: true },
    description: { type: 'string' },
    definition: { type: 'string' },
  });
  const [, action, name] = args.positionals;
  const db = stringFlag(args, 'db');
  const json = booleanFlag(args, 'json');
  switch (action) {
    case 'add': {
      if (name === undefined) throw usageError(`a template name is needed; usage: ${USAGE}`);
      const definition = await definitionOf(args);
      const added = await withRegistry(db, logger, (registry) => registry.templates.add(name, definition));
      if (json) writeJson(added);
      else writeResult(`added template ${added.name}: ${[added.command, ...added.args].join(' ')}`);
      return;
    }
    case 'list': {
      checkPositionals(args, 2, USAGE);
      const list = await withRegistry(db, logger, (registry) => registry.templates.list());
      if (json) writeJson({ templates: list });
      else writeResult(list.length === 0 ? 'no templates' : list.map(formatTemplate).join('\n'));
      return;
    }
    case 'remove': {
      checkPositionals(args, 3, USAGE);
      if (name === undefined) throw usageError(`a template name is needed; usage: ${USAGE}`);
      await withRegistry(db, logger, (registry) => registry.templates.remove(name));
      if (json) writeJson({ removed: name });
      else writeResult(`removed template ${name}`);
      return;
    }
    default:
      throw unknownActionError(action, USAGE);
  }
}

async function definitionOf(args: CommandArgs): Promise<ServerTemplateInput> {
  const raw = stringFlag(args, 'definition');
  if (raw !== undefined) {
    const text = raw.startsWith('@') ? await readFile(raw.slice(1), 'utf8') : raw;
    try {
      // Checked by the registry (parseServerTemplate), which reports every problem at once.
      return JSON.parse(text) as ServerTemplateInput;
    } catch (error) {
      throw usageError(`--definition is not valid JSON: ${(error as Error).message}`);
    }
  }
  const command = stringFlag(args, 'command');
  if (command === undefined) throw usageError(`give --command (or --definition); usage: ${USAGE}`);
  const description = stringFlag(args, 'description');
  return {
    command,
    args: [...listFlag(args, 'arg'), ...args.positionals.slice(3)],
    env: pairsFlag(args, 'env', '='),
    parameters: listFlag(args, 'param').map(parameterOf),
    ...(description === undefined ? {} : { description }),
  };
}

/** `name[?][!][:type[:pattern]]` → a parameter. */
function parameterOf(spec: string): TemplateParameter {
  const [head = '', type = 'string', ...rest] = spec.split(':');
  const pattern = rest.join(':');
  const match = /^([A-Za-z_][A-Za-z0-9_]*)([?!]*)$/.exec(head);
  if (match?.[1] === undefined) throw usageError(`--param "${spec}": expected name[?][!][:type[:pattern]], e.g. folder:string:[a-z0-9-]+`);
  if (!TYPES.has(type)) throw usageError(`--param "${spec}": type must be one of ${[...TYPES].join(', ')}`);
  const flags = match[2] ?? '';
  return {
    name: match[1],
    type: type as TemplateParameter['type'],
    ...(flags.includes('?') ? { required: false } : {}),
    ...(flags.includes('!') ? { secret: true } : {}),
    ...(pattern === '' ? {} : type === 'enum' ? { values: pattern.split('|') } : { pattern }),
  };
}

function formatTemplate(template: RegisteredTemplate): string {
  const parameters = template.parameters.map((parameter) => `${String(parameter.name)}${parameter.required === false ? '?' : ''}${parameter.secret === true ? '!' : ''}:${String(parameter.type ?? 'string')}`).join(', ');
  const env = Object.entries(template.env).map(([key, value]) => `${key}=${value}`).join(' ');
  return `${style.bold(template.name, true)}  ${[template.command, ...template.args].join(' ')}${env === '' ? '' : style.dim(`  env ${env}`, true)}${parameters === '' ? '' : `\n  parameters: ${parameters}`}${template.description === undefined ? '' : `\n  ${template.description}`}`;
}

/**
 * @module cli/commands/access-item-actions
 * `list` and `remove ID` of the access items the registry keeps by id (tool rules, rate limits): the
 * same argument checks, registry call and output for each kind.
 */

import type { Logger } from '../../logger.js';
import type { ServerRegistry } from '../../registry/index.js';
import { usageError } from '../cli-error.js';
import { withRegistry } from '../open-registry.js';
import { writeJson, writeResult } from '../output.js';
import { booleanFlag, checkPositionals, stringFlag, type CommandArgs } from '../registry-args.js';

/** One kind of item: its name (`rule`), the command's usage, and how it reads in a list. */
export interface AccessItemKind<T> {
  noun: 'rule' | 'limit';
  usage: string;
  list: (registry: ServerRegistry) => Promise<T[]>;
  remove: (registry: ServerRegistry, id: string) => Promise<unknown>;
  describe: (item: T) => string;
  /** What `list` prints when there are none. */
  none: string;
}

/** `switchboard <noun>s list [--json]`. */
export async function listAccessItems<T>(args: CommandArgs, logger: Logger, kind: AccessItemKind<T>): Promise<void> {
  checkPositionals(args, 2, kind.usage);
  const items = await withRegistry(stringFlag(args, 'db'), logger, kind.list);
  if (booleanFlag(args, 'json')) return writeJson({ [`${kind.noun}s`]: items });
  return writeResult(items.length === 0 ? kind.none : items.map(kind.describe).join('\n'));
}

/** `switchboard <noun>s remove ID [--json]`. */
export async function removeAccessItem<T>(args: CommandArgs, logger: Logger, kind: AccessItemKind<T>): Promise<void> {
  checkPositionals(args, 3, kind.usage);
  const id = args.positionals[2];
  if (id === undefined) throw usageError(`a ${kind.noun} id is needed (see \`switchboard ${kind.noun}s list\`); usage: ${kind.usage}`);
  await withRegistry(stringFlag(args, 'db'), logger, (registry) => kind.remove(registry, id));
  return booleanFlag(args, 'json') ? writeJson({ removed: id }) : writeResult(`removed ${kind.noun} ${id}`);
}

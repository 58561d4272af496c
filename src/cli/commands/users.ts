/**
 * @module cli/commands/users
 * `switchboard users add NAME [--admin] | list | remove NAME`: the registry's users.
 */

import type { Logger } from '../../logger.js';
import type { RegistryUser } from '../../registry/registry-types.js';
import { usageError } from '../cli-error.js';
import { withRegistry } from '../open-registry.js';
import { style, writeJson, writeResult } from '../output.js';
import { booleanFlag, checkPositionals, parseCommandArgs, stringFlag } from '../registry-args.js';

const USAGE = 'switchboard users add NAME [--admin] | users list [--json] | users remove NAME';

/** Runs `switchboard users …` from the command line. */
export async function users(argv: readonly string[], logger: Logger): Promise<void> {
  const args = parseCommandArgs(argv, { admin: { type: 'boolean' } });
  const [, action, name] = args.positionals;
  const db = stringFlag(args, 'db');
  const json = booleanFlag(args, 'json');
  switch (action) {
    case 'add': {
      checkPositionals(args, 3, USAGE);
      if (name === undefined) throw usageError(`a user name is needed; usage: ${USAGE}`);
      const user = await withRegistry(db, logger, (registry) => registry.users.add(name, { isAdmin: booleanFlag(args, 'admin') }));
      if (json) writeJson(user);
      else writeResult(`added user ${user.name}${user.isAdmin ? ' (admin)' : ''}`);
      return;
    }
    case 'list': {
      checkPositionals(args, 2, USAGE);
      const list = await withRegistry(db, logger, (registry) => registry.users.list());
      if (json) writeJson({ users: list });
      else writeResult(formatUsers(list));
      return;
    }
    case 'remove': {
      checkPositionals(args, 3, USAGE);
      if (name === undefined) throw usageError(`a user name is needed; usage: ${USAGE}`);
      await withRegistry(db, logger, (registry) => registry.users.remove(name));
      if (json) writeJson({ removed: name });
      else writeResult(`removed user ${name} with their servers and tokens`);
      return;
    }
    default:
      throw usageError(`${action === undefined ? 'an action is needed' : `unknown action "${action}"`}; usage: ${USAGE}`);
  }
}

function formatUsers(list: readonly RegistryUser[]): string {
  if (list.length === 0) return 'no users yet; add one with `switchboard users add NAME`';
  const width = Math.max(4, ...list.map((user) => user.name.length));
  const lines = [style.bold(`${'NAME'.padEnd(width)}  ROLE    CREATED`, true)];
  for (const user of list) {
    const exceptions = user.policy === undefined ? '' : style.dim(`  policy exceptions: ${Object.keys(user.policy).join(', ')}`, true);
    lines.push(`${user.name.padEnd(width)}  ${(user.isAdmin ? 'admin' : 'tenant').padEnd(6)}  ${user.createdAt}${exceptions}`);
  }
  return lines.join('\n');
}

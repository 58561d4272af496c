/**
 * @module cli/commands/users
 * `switchboard users add NAME [--admin] | list | remove NAME | tool-search NAME off|on|auto`: the registry's
 * users, and how each one's gateway endpoint offers tools.
 */

import type { Logger } from '../../logger.js';
import type { RegistryUser } from '../../registry/registry-types.js';
import { TOOL_SEARCH_MODES, type ToolSearchMode } from '../../client/search/tool-search-mode.js';
import { unknownActionError, usageError } from '../cli-error.js';
import { withRegistry } from '../open-registry.js';
import { style, writeJson, writeResult } from '../output.js';
import { booleanFlag, checkPositionals, parseCommandArgs, stringFlag } from '../registry-args.js';

const USAGE = 'switchboard users add NAME [--admin] | users list [--json] | users remove NAME | users tool-search NAME off|on|auto [--pinned a,b]';

/** Runs `switchboard users …` from the command line. */
export async function users(argv: readonly string[], logger: Logger): Promise<void> {
  const args = parseCommandArgs(argv, { admin: { type: 'boolean' }, pinned: { type: 'string' } });
  const [, action, name, mode] = args.positionals;
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
    case 'tool-search': {
      checkPositionals(args, 4, USAGE);
      if (name === undefined || mode === undefined) throw usageError(`a user name and a mode are needed; usage: ${USAGE}`);
      if (!(TOOL_SEARCH_MODES as readonly string[]).includes(mode)) throw usageError(`the mode must be one of ${TOOL_SEARCH_MODES.join(', ')}, got "${mode}"`);
      const pinned = stringFlag(args, 'pinned');
      const option = mode === 'off' ? undefined : { mode: mode as ToolSearchMode, ...(pinned === undefined ? {} : { pinned: pinned.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '') }) };
      const user = await withRegistry(db, logger, (registry) => registry.users.setToolSearch(name, option));
      if (json) writeJson(user);
      else writeResult(`tool search for ${user.name}: ${user.toolSearch === undefined ? 'off (every tool definition on /mcp)' : `${user.toolSearch.mode}${user.toolSearch.pinned === undefined ? '' : `, pinned ${user.toolSearch.pinned.join(', ')}`}`}`);
      return;
    }
    default:
      throw unknownActionError(action, USAGE);
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

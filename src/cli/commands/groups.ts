/**
 * @module cli/commands/groups
 * `switchboard groups add NAME [--member U]… | list | remove NAME | add-member NAME USER |
 * remove-member NAME USER`: groups of users, which tool rules, rate limits and endpoints name.
 */

import type { Logger } from '../../logger.js';
import type { RegistryGroup } from '../../registry/index.js';
import { unknownActionError, usageError } from '../cli-error.js';
import { withRegistry } from '../open-registry.js';
import { style, writeJson, writeResult } from '../output.js';
import { booleanFlag, checkPositionals, listFlag, parseCommandArgs, stringFlag } from '../registry-args.js';

const USAGE = 'switchboard groups add NAME [--member USER]… [--description D] | groups list [--json] | groups remove NAME | groups add-member NAME USER | groups remove-member NAME USER';

/** Runs `switchboard groups …`. */
export async function groups(argv: readonly string[], logger: Logger): Promise<void> {
  const args = parseCommandArgs(argv, { member: { type: 'string', multiple: true }, description: { type: 'string' } });
  const [, action, name, member] = args.positionals;
  const db = stringFlag(args, 'db');
  const json = booleanFlag(args, 'json');
  const named = (): string => {
    if (name === undefined) throw usageError(`a group name is needed; usage: ${USAGE}`);
    return name;
  };
  const show = (group: RegistryGroup, verb: string): void => (json ? writeJson(group) : writeResult(`${verb} group ${group.name} (${group.members.length === 0 ? 'no members' : group.members.join(', ')})`));
  switch (action) {
    case 'add': {
      checkPositionals(args, 3, USAGE);
      const description = stringFlag(args, 'description');
      const group = await withRegistry(db, logger, async (registry) => {
        await registry.groups.add(named(), description === undefined ? {} : { description });
        for (const user of listFlag(args, 'member')) await registry.groups.addMember(named(), user);
        return registry.groups.get(named());
      });
      return show(group, 'added');
    }
    case 'list': {
      checkPositionals(args, 2, USAGE);
      const list = await withRegistry(db, logger, (registry) => registry.groups.list());
      if (json) return writeJson({ groups: list });
      if (list.length === 0) return writeResult('no groups yet; add one with `switchboard groups add NAME --member USER`');
      const width = Math.max(4, ...list.map((group) => group.name.length));
      return writeResult([style.bold(`${'NAME'.padEnd(width)}  MEMBERS`, true), ...list.map((group) => `${group.name.padEnd(width)}  ${group.members.join(', ') || style.dim('none', true)}`)].join('\n'));
    }
    case 'remove': {
      checkPositionals(args, 3, USAGE);
      await withRegistry(db, logger, (registry) => registry.groups.remove(named()));
      return json ? writeJson({ removed: name }) : writeResult(`removed group ${named()}; rules and grants naming it no longer apply to anyone`);
    }
    case 'add-member':
    case 'remove-member': {
      checkPositionals(args, 4, USAGE);
      if (member === undefined) throw usageError(`a user name is needed; usage: ${USAGE}`);
      const group = await withRegistry(db, logger, (registry) => (action === 'add-member' ? registry.groups.addMember(named(), member) : registry.groups.removeMember(named(), member)));
      return show(group, 'updated');
    }
    default:
      throw unknownActionError(action, USAGE);
  }
}

/**
 * @module cli/commands/policy
 * `switchboard policy show|set [--user U]`: the tenant policy, globally or as one user's exceptions.
 * Lists given with `set` replace the stored ones; `--clear --user U` removes a user's exceptions.
 */

import type { Logger } from '../../logger.js';
import type { TenantPolicy } from '../../registry/tenant-policy.js';
import { unknownActionError, usageError } from '../cli-error.js';
import { withRegistry } from '../open-registry.js';
import { writeJson, writeResult } from '../output.js';
import { booleanFlag, checkPositionals, integerFlag, listFlag, parseCommandArgs, stringFlag, truthFlag, type CommandArgs } from '../registry-args.js';

const USAGE =
  'switchboard policy show [--user U] [--json] | policy set [--user U] [--allow-stdio true|false] [--allow-host-env true|false] [--allow-http-host H]… [--allow-address CIDR|CATEGORY]… [--max-servers N] [--max-concurrent-calls N] | policy set --user U --clear';

/** Runs `switchboard policy …` from the command line. */
export async function policy(argv: readonly string[], logger: Logger): Promise<void> {
  const args = parseCommandArgs(argv, {
    user: { type: 'string' },
    clear: { type: 'boolean' },
    'allow-stdio': { type: 'string' },
    'allow-host-env': { type: 'string' },
    'allow-http-host': { type: 'string', multiple: true },
    'allow-address': { type: 'string', multiple: true },
    'max-servers': { type: 'string' },
    'max-concurrent-calls': { type: 'string' },
  });
  const [, action] = args.positionals;
  checkPositionals(args, 2, USAGE);
  const db = stringFlag(args, 'db');
  const user = stringFlag(args, 'user');
  const json = booleanFlag(args, 'json');
  if (action === 'show') {
    const shown = await withRegistry(db, logger, async (registry) => {
      if (user === undefined) return { policy: await registry.policy() };
      const found = await registry.users.get(user);
      return { user: found.name, admin: found.isAdmin, exceptions: found.policy ?? {}, policy: (await registry.policyFor(found)) ?? null };
    });
    if (json) writeJson(shown);
    else writeResult(shown.policy === null ? `${user ?? ''} is an admin: the tenant policy does not apply` : formatPolicy(shown.policy));
    return;
  }
  if (action !== 'set') throw unknownActionError(action, USAGE);
  const changes = changesOf(args);
  if (booleanFlag(args, 'clear')) {
    if (user === undefined) throw usageError('--clear removes one user\'s exceptions: give --user');
    await withRegistry(db, logger, (registry) => registry.users.setPolicy(user, undefined));
    writeResult(`removed the policy exceptions of ${user}`);
    return;
  }
  if (Object.keys(changes).length === 0) throw usageError(`nothing to set; usage: ${USAGE}`);
  const result = await withRegistry(db, logger, async (registry) => {
    if (user === undefined) return registry.setPolicy(changes);
    const found = await registry.users.get(user);
    await registry.users.setPolicy(found, { ...found.policy, ...changes });
    return (await registry.policyFor(found)) ?? (await registry.policy());
  });
  if (json) writeJson({ policy: result });
  else writeResult(`${user === undefined ? 'global policy' : `policy of ${user}`} now:\n${formatPolicy(result)}`);
}

function changesOf(args: CommandArgs): Partial<TenantPolicy> {
  const changes: Partial<TenantPolicy> = {};
  const allowStdio = truthFlag(args, 'allow-stdio');
  if (allowStdio !== undefined) changes.allowStdio = allowStdio;
  const allowHostEnv = truthFlag(args, 'allow-host-env');
  if (allowHostEnv !== undefined) changes.allowHostEnv = allowHostEnv;
  if (args.values['allow-http-host'] !== undefined) changes.allowHttpHosts = listFlag(args, 'allow-http-host').filter((host) => host !== '');
  if (args.values['allow-address'] !== undefined) changes.allowAddresses = listFlag(args, 'allow-address').filter((address) => address !== '');
  const maxServers = integerFlag(args, 'max-servers');
  if (maxServers !== undefined) changes.maxServers = maxServers;
  const maxConcurrentCalls = integerFlag(args, 'max-concurrent-calls');
  if (maxConcurrentCalls !== undefined) changes.maxConcurrentCalls = maxConcurrentCalls;
  return changes;
}

function formatPolicy(policy: TenantPolicy): string {
  const list = (values: string[]): string => (values.length === 0 ? '(none)' : values.join(', '));
  return [
    `  stdio servers (other than templates): ${policy.allowStdio ? 'allowed' : 'refused'}`,
    `  host environment (\${VAR}, inheritEnv): ${policy.allowHostEnv ? 'allowed' : 'refused'}`,
    `  plain http allowed to: ${list(policy.allowHttpHosts)}`,
    `  non-public addresses allowed: ${list(policy.allowAddresses)}`,
    `  servers per user: ${policy.maxServers}`,
    `  concurrent calls per user: ${policy.maxConcurrentCalls}`,
  ].join('\n');
}

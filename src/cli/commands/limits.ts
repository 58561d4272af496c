/**
 * @module cli/commands/limits
 * `switchboard limits add --per-minute N [--scope S] [--tool G]… [--per-caller] | list | remove ID`:
 * calls-per-minute limits (token buckets) on top of the concurrency limit.
 */

import type { Logger } from '../../logger.js';
import type { RateLimit } from '../../registry/index.js';
import { unknownActionError, usageError } from '../cli-error.js';
import { withRegistry } from '../open-registry.js';
import { writeJson, writeResult } from '../output.js';
import { booleanFlag, checkPositionals, integerFlag, listFlag, parseCommandArgs, stringFlag } from '../registry-args.js';
import { listAccessItems, removeAccessItem, type AccessItemKind } from './access-item-actions.js';
import { parseScope, scopeText } from './access-scope-flag.js';

const USAGE = 'switchboard limits add --per-minute N [--scope global|endpoint:N|group:N|user:N] [--tool GLOB]… [--per-caller] [--description D] | limits list [--json] | limits remove ID';

function describe(limit: RateLimit): string {
  return `${limit.id}: ${limit.perMinute}/min for ${scopeText(limit.scope)}${limit.tools === undefined ? '' : `, each tool of ${limit.tools.join(',')}`}${limit.scope.kind === 'user' || limit.perCaller === true ? ', per caller' : ''}`;
}

/** `list` and `remove` (access-item-actions.ts). */
const KIND: AccessItemKind<RateLimit> = {
  noun: 'limit',
  usage: USAGE,
  list: (registry) => registry.access.listLimits(),
  remove: (registry, id) => registry.access.removeLimit(id),
  describe,
  none: 'no rate limits (the concurrency limit still applies)',
};

/** Runs `switchboard limits …`. */
export async function limits(argv: readonly string[], logger: Logger): Promise<void> {
  const args = parseCommandArgs(argv, { 'per-minute': { type: 'string' }, scope: { type: 'string' }, tool: { type: 'string', multiple: true }, 'per-caller': { type: 'boolean' }, description: { type: 'string' } });
  const [, action] = args.positionals;
  const db = stringFlag(args, 'db');
  const json = booleanFlag(args, 'json');
  switch (action) {
    case 'add': {
      checkPositionals(args, 2, USAGE);
      const perMinute = integerFlag(args, 'per-minute');
      if (perMinute === undefined) throw usageError(`--per-minute is required; usage: ${USAGE}`);
      const tools = listFlag(args, 'tool');
      const description = stringFlag(args, 'description');
      const limit = await withRegistry(db, logger, (registry) =>
        registry.access.addLimit({
          scope: parseScope(stringFlag(args, 'scope')),
          perMinute,
          ...(tools.length === 0 ? {} : { tools }),
          ...(booleanFlag(args, 'per-caller') ? { perCaller: true } : {}),
          ...(description === undefined ? {} : { description }),
        }),
      );
      return json ? writeJson(limit) : writeResult(`added limit ${describe(limit)}`);
    }
    case 'list':
      return listAccessItems(args, logger, KIND);
    case 'remove':
      return removeAccessItem(args, logger, KIND);
    default:
      throw unknownActionError(action, USAGE);
  }
}

/**
 * @module cli/commands/rules
 * `switchboard rules add (--allow|--deny) [--scope S] [--tool G]… [--server G]… [--read-only B]
 * [--destructive B] [--open-world B] | list | remove ID`: tool rules. Deny wins; once an allow rule
 * applies to a caller, only what allow rules match is listed and callable.
 */

import type { Logger } from '../../logger.js';
import { describeRule, type AnnotationFilter, type ToolRule } from '../../registry/index.js';
import { unknownActionError, usageError } from '../cli-error.js';
import { withRegistry } from '../open-registry.js';
import { writeJson, writeResult } from '../output.js';
import { booleanFlag, checkPositionals, listFlag, parseCommandArgs, stringFlag, truthFlag } from '../registry-args.js';
import { listAccessItems, removeAccessItem, type AccessItemKind } from './access-item-actions.js';
import { parseScope } from './access-scope-flag.js';

const USAGE = 'switchboard rules add (--allow|--deny) [--scope global|endpoint:N|group:N|user:N] [--tool GLOB]… [--server GLOB]… [--read-only true|false] [--destructive true|false] [--open-world true|false] [--description D] | rules list [--json] | rules remove ID';

/** `list` and `remove` (access-item-actions.ts). */
const KIND: AccessItemKind<ToolRule> = {
  noun: 'rule',
  usage: USAGE,
  list: (registry) => registry.access.listRules(),
  remove: (registry, id) => registry.access.removeRule(id),
  describe: (rule) => describeRule(rule) + (rule.description === undefined ? '' : `  (${rule.description})`),
  none: 'no tool rules: every user may call every tool they have',
};

/** Runs `switchboard rules …`. */
export async function rules(argv: readonly string[], logger: Logger): Promise<void> {
  const args = parseCommandArgs(argv, {
    allow: { type: 'boolean' },
    deny: { type: 'boolean' },
    scope: { type: 'string' },
    tool: { type: 'string', multiple: true },
    server: { type: 'string', multiple: true },
    'read-only': { type: 'string' },
    destructive: { type: 'string' },
    'open-world': { type: 'string' },
    description: { type: 'string' },
  });
  const [, action] = args.positionals;
  const db = stringFlag(args, 'db');
  const json = booleanFlag(args, 'json');
  switch (action) {
    case 'add': {
      checkPositionals(args, 2, USAGE);
      if (booleanFlag(args, 'allow') === booleanFlag(args, 'deny')) throw usageError(`give exactly one of --allow and --deny; usage: ${USAGE}`);
      const annotations: AnnotationFilter = {};
      const readOnly = truthFlag(args, 'read-only');
      const destructive = truthFlag(args, 'destructive');
      const openWorld = truthFlag(args, 'open-world');
      if (readOnly !== undefined) annotations.readOnlyHint = readOnly;
      if (destructive !== undefined) annotations.destructiveHint = destructive;
      if (openWorld !== undefined) annotations.openWorldHint = openWorld;
      const tools = listFlag(args, 'tool');
      const servers = listFlag(args, 'server');
      const description = stringFlag(args, 'description');
      const rule = await withRegistry(db, logger, (registry) =>
        registry.access.addRule({
          scope: parseScope(stringFlag(args, 'scope')),
          effect: booleanFlag(args, 'allow') ? 'allow' : 'deny',
          ...(tools.length === 0 ? {} : { tools }),
          ...(servers.length === 0 ? {} : { servers }),
          ...(Object.keys(annotations).length === 0 ? {} : { annotations }),
          ...(description === undefined ? {} : { description }),
        }),
      );
      return json ? writeJson(rule) : writeResult(`added rule ${describeRule(rule)}`);
    }
    case 'list':
      return listAccessItems(args, logger, KIND);
    case 'remove':
      return removeAccessItem(args, logger, KIND);
    default:
      throw unknownActionError(action, USAGE);
  }
}

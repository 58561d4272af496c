/**
 * @module cli/commands/token
 * `switchboard token create --user U` prints a new API token once (only its hash is stored);
 * `token list --user U` and `token revoke PREFIX --user U` manage them.
 */

import type { Logger } from '../../logger.js';
import { unknownActionError, usageError } from '../cli-error.js';
import { withRegistry } from '../open-registry.js';
import { writeDiagnostic, writeJson, writeResult } from '../output.js';
import { booleanFlag, checkPositionals, parseCommandArgs, requiredFlag, stringFlag } from '../registry-args.js';

const USAGE = 'switchboard token create --user U [--name N] [--expires 30d] | token list --user U [--json] | token revoke PREFIX --user U';
const DAY_MS = 86_400_000;

/** Runs `switchboard token …` from the command line. */
export async function token(argv: readonly string[], logger: Logger): Promise<void> {
  const args = parseCommandArgs(argv, { user: { type: 'string' }, name: { type: 'string' }, expires: { type: 'string' } });
  const [, action, prefix] = args.positionals;
  const db = stringFlag(args, 'db');
  const json = booleanFlag(args, 'json');
  switch (action) {
    case 'create': {
      checkPositionals(args, 2, USAGE);
      const user = requiredFlag(args, 'user', 'to say whose token it is');
      const expires = stringFlag(args, 'expires');
      const name = stringFlag(args, 'name');
      const created = await withRegistry(db, logger, (registry) =>
        registry.tokens.create(user, { ...(name === undefined ? {} : { name }), ...(expires === undefined ? {} : { expiresInMs: lifetimeOf(expires) }) }),
      );
      if (json) writeJson({ token: created.token, ...created.info });
      else writeResult(created.token);
      writeDiagnostic(`token ${created.info.prefix} for ${user}${created.info.expiresAt === undefined ? '' : `, valid until ${created.info.expiresAt}`}: this is the only time it is shown; store it now`);
      return;
    }
    case 'list': {
      checkPositionals(args, 2, USAGE);
      const user = requiredFlag(args, 'user', 'to say whose tokens to list');
      const list = await withRegistry(db, logger, (registry) => registry.tokens.list(user));
      if (json) writeJson({ tokens: list });
      else {
        writeResult(
          list.length === 0
            ? `${user} has no tokens`
            : list.map((item) => `sb_${item.prefix}_…  ${item.name ?? ''}  created ${item.createdAt}${item.lastUsedAt === undefined ? '' : `, last used ${item.lastUsedAt}`}${item.expiresAt === undefined ? '' : `, expires ${item.expiresAt}`}`).join('\n'),
        );
      }
      return;
    }
    case 'revoke': {
      checkPositionals(args, 3, USAGE);
      if (prefix === undefined) throw usageError(`the token's prefix is needed (see token list); usage: ${USAGE}`);
      const user = requiredFlag(args, 'user', 'to say whose token it is');
      const cleaned = /^sb_([0-9a-f]{12})/.exec(prefix)?.[1] ?? prefix;
      await withRegistry(db, logger, (registry) => registry.tokens.revoke(user, cleaned));
      if (json) writeJson({ revoked: cleaned });
      else writeResult(`revoked token ${cleaned} of ${user}`);
      return;
    }
    default:
      throw unknownActionError(action, USAGE);
  }
}

/** `30d`, `12h`, `90m`, `3600s` → ms. */
function lifetimeOf(text: string): number {
  const match = /^(\d+)(d|h|m|s)$/.exec(text.trim());
  if (match === null) throw usageError(`--expires takes a lifetime such as 30d, 12h or 90m, got "${text}"`);
  const unit = { d: DAY_MS, h: 3_600_000, m: 60_000, s: 1_000 }[match[2] as 'd' | 'h' | 'm' | 's'];
  const ms = Number(match[1]) * unit;
  if (ms <= 0) throw usageError('--expires must be longer than 0');
  return ms;
}

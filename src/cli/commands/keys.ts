/**
 * @module cli/commands/keys
 * `switchboard keys rotate`: re-encrypts every stored secret under a new key. With a key file, the
 * new key replaces it; with `SWITCHBOARD_SECRET_KEY`, the new key is read from
 * `SWITCHBOARD_NEW_SECRET_KEY` and the operator sets it as the key afterwards. Keys are never printed.
 */

import type { Logger } from '../../logger.js';
import { unknownActionError } from '../cli-error.js';
import { withRegistry } from '../open-registry.js';
import { writeDiagnostic, writeJson, writeResult } from '../output.js';
import { booleanFlag, checkPositionals, parseCommandArgs, stringFlag } from '../registry-args.js';

const USAGE = 'switchboard keys rotate [--json]';
/** Where `keys rotate` reads the new key when the current one comes from the environment. */
export const NEW_SECRET_KEY_ENV = 'SWITCHBOARD_NEW_SECRET_KEY';

/** Runs `switchboard keys …` from the command line. */
export async function keys(argv: readonly string[], logger: Logger): Promise<void> {
  const args = parseCommandArgs(argv, {});
  const [, action] = args.positionals;
  if (action !== 'rotate') throw unknownActionError(action, USAGE);
  checkPositionals(args, 2, USAGE);
  const newKey = process.env[NEW_SECRET_KEY_ENV];
  const rotation = await withRegistry(stringFlag(args, 'db'), logger, (registry) =>
    registry.rotateSecretKey(newKey === undefined || newKey === '' ? {} : { newKey }),
  );
  if (booleanFlag(args, 'json')) writeJson(rotation);
  else writeResult(`re-encrypted ${rotation.reencrypted} secret${rotation.reencrypted === 1 ? '' : 's'}: key ${rotation.previousKeyId} → ${rotation.keyId} (${rotation.keySource})`);
  if (rotation.keySource === 'SWITCHBOARD_SECRET_KEY') {
    writeDiagnostic(`now set SWITCHBOARD_SECRET_KEY to the value of ${NEW_SECRET_KEY_ENV} everywhere this database is used; the old key no longer opens it`);
  } else {
    writeDiagnostic('other processes using this database must restart to pick up the new key');
  }
}

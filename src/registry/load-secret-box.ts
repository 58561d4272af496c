/**
 * @module registry/load-secret-box
 * The registry's secret key against the one its database records (`settings.secret_key_id`): loaded,
 * checked, and an interrupted key rotation finished or undone; and the settings it is kept in. Internal.
 */

import { existsSync, rmSync } from 'node:fs';
import type { Kysely } from 'kysely';
import { ErrorCode, SwitchboardError } from '../errors.js';
import type { RegistryDatabase } from './database-schema.js';
import { SECRET_KEY_ENV, SecretBox, commitPendingKeyFile, pendingKeyFile } from './secret-box.js';

/** The setting that records which key encrypted the database's secrets. */
export const SETTING_KEY_ID = 'secret_key_id';

/**
 * Loads the key and checks it against the one the database records. Finishes (or undoes) a key
 * rotation that was interrupted between the database commit and the key file rename.
 */
export async function loadSecretBox(db: Kysely<RegistryDatabase>, secretKey: string | undefined, keyFile: string | undefined): Promise<SecretBox> {
  const recorded = await getSetting(db, SETTING_KEY_ID);
  if (keyFile !== undefined && existsSync(pendingKeyFile(keyFile))) {
    const pending = SecretBox.load({ keyFile: pendingKeyFile(keyFile) }, false);
    if (pending !== undefined && pending.keyId === recorded) commitPendingKeyFile(keyFile);
    else rmSync(pendingKeyFile(keyFile), { force: true });
  }
  const box = SecretBox.load(secretKey === undefined ? { ...(keyFile === undefined ? {} : { keyFile }) } : { secretKey }, recorded === undefined);
  if (box === undefined) {
    throw new SwitchboardError(ErrorCode.SecretKeyInvalid, `this database holds secrets encrypted with key ${recorded ?? '?'}, but there is no key: ${keyFile ?? SECRET_KEY_ENV} does not exist`, {
      hint: `restore the key file, or set ${SECRET_KEY_ENV} to the key`,
    });
  }
  if (recorded === undefined) {
    await db.insertInto('settings').values({ key: SETTING_KEY_ID, value: box.keyId }).onConflict((conflict) => conflict.column('key').doNothing()).execute();
  }
  const now = recorded ?? (await getSetting(db, SETTING_KEY_ID));
  if (now !== box.keyId) {
    throw new SwitchboardError(ErrorCode.SecretKeyInvalid, `this database's secrets are encrypted with key ${now ?? '?'}, but the key in ${box.source} is ${box.keyId}`, {
      hint: `use the key this database was written with (${SECRET_KEY_ENV} or the key file)`,
    });
  }
  return box;
}

export async function getSetting(db: Kysely<RegistryDatabase>, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

export async function setSetting(db: Kysely<RegistryDatabase>, key: string, value: string): Promise<void> {
  await db.insertInto('settings').values({ key, value }).onConflict((conflict) => conflict.column('key').doUpdateSet({ value })).execute();
}

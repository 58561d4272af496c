/**
 * @module registry/seal-clear-secrets
 * Rows written before a field was listed in {@link SECRET_FIELDS} keep its value in clear in the
 * `entry` column — the OAuth client secrets and keys before issue 14. When a registry opens, such
 * rows are sealed like new ones, so an upgrade leaves no clear secret behind.
 */

import { z } from 'zod';
import { hasClearSecrets, parseSecretPart, sealEntry, unsealEntry } from './entry-secrets.js';
import { parseStoredJson, type RegistryContext } from './registry-context.js';

const storedEntrySchema = z.record(z.string(), z.unknown());

/**
 * Seals every server row whose entry holds a secret value in clear; returns how many. A row edited
 * meanwhile (by another replica) is left to that edit: the update matches the entry it read.
 */
export async function sealClearSecrets(context: Pick<RegistryContext, 'db' | 'box' | 'logger'>): Promise<number> {
  const rows = await context.db.selectFrom('servers').select(['id', 'name', 'entry', 'secrets']).execute();
  let sealed = 0;
  for (const row of rows) {
    const publicPart = storedEntrySchema.parse(parseStoredJson(row.entry, `server ${row.name}`));
    if (!hasClearSecrets(publicPart)) continue;
    const where = `server:${row.id}`;
    const secretPart = row.secrets === null ? {} : parseSecretPart(parseStoredJson(context.box.decrypt(row.secrets, where), `server ${row.name} secrets`), `server "${row.name}"`);
    const hidden = secretPart.parameters;
    const stored = sealEntry(unsealEntry(publicPart, secretPart), new Set(typeof hidden === 'object' && hidden !== null ? Object.keys(hidden) : []));
    const result = await context.db
      .updateTable('servers')
      .set({ entry: JSON.stringify(stored.publicPart), secrets: context.box.encrypt(JSON.stringify(stored.secretPart), where) })
      .where('id', '=', row.id)
      .where('entry', '=', row.entry)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) sealed++;
  }
  if (sealed > 0) context.logger.info('sealed secret values stored in clear', { servers: sealed });
  return sealed;
}

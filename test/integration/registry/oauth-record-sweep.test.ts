/**
 * Expired OAuth records are swept (both backends): a used DPoP proof is claimed once (a second claim
 * is refused, as a replay), and once it has expired the gateway's sweeper deletes it, leaving records
 * that have not expired; closing the sweeper stops it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RecordSweeper } from '../../../src/gateway/oauth-server/record-sweeper.js';
import { noopLogger } from '../../../src/logger.js';
import { ServerRegistry } from '../../../src/registry/server-registry.js';
import { waitFor } from '../../helpers/processes.js';
import { backendsToTest, createTestDatabase, type TestDatabase } from '../../helpers/registry-backends.js';

for (const { kind, skip } of await backendsToTest()) {
  describe.skipIf(skip !== undefined)(`OAuth record sweep on ${kind}${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
    let database: TestDatabase;
    let registry: ServerRegistry;

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      registry = await ServerRegistry.open({ db: database.db, keyFile: join(database.dir, 'secret.key'), watch: false });
    });
    afterAll(async () => {
      await registry?.close();
      await database?.drop();
    });

    test('a proof id is claimed once; expired, it is swept and can be claimed again; a live record stays', async () => {
      const store = registry.oauthServer;
      expect(await store.claimOnce('DPoPProof', 'key:jti-1', 1)).toBe(true);
      expect(await store.claimOnce('DPoPProof', 'key:jti-1', 1)).toBe(false);
      expect(await store.claimOnce('DPoPProof', 'key:jti-live', 600)).toBe(true);
      const sweeper = new RecordSweeper(store, noopLogger, 50);
      try {
        // Swept once its second has passed: then the same id is new again.
        await waitFor(async () => store.claimOnce('DPoPProof', 'key:jti-1', 600), 10_000, 'the expired proof record to be swept');
        expect(await store.claimOnce('DPoPProof', 'key:jti-live', 600)).toBe(false);
      } finally {
        await sweeper.close();
      }
    });
  });
}

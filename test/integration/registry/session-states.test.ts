/**
 * A 2025-era session's carried state in the registry, on both backends: saved (an upsert), read back
 * only for its own user, removed, forgotten with the ended sessions once older than an id lives; on
 * PostgreSQL a save is announced to the other processes (`session-state-changed`).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ServerRegistry } from '../../../src/registry/server-registry.js';
import { SecretBox } from '../../../src/registry/secret-box.js';
import { waitFor } from '../../helpers/processes.js';
import { backendsToTest, createTestDatabase, type TestDatabase } from '../../helpers/registry-backends.js';

for (const { kind, skip } of await backendsToTest()) {
  describe.skipIf(skip !== undefined)(`session states on ${kind}${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
    let database: TestDatabase;
    let a: ServerRegistry;
    let b: ServerRegistry;
    const secretKey = SecretBox.formatKey(SecretBox.generateKey());

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      a = await ServerRegistry.open({ db: database.db, secretKey });
      b = await ServerRegistry.open({ db: database.db, secretKey });
    }, 60_000);

    afterAll(async () => {
      await a?.close();
      await b?.close();
      await database?.drop();
    });

    test('saved, read back for its user only, replaced, removed; old ones forgotten', async () => {
      const digest = 'c'.repeat(64);
      await a.sessionStates.save(digest, 'u1', { logLevel: 'info', subscriptions: [['watch://a', 'watch', 'watch://a']] });
      expect(await b.sessionStates.load(digest, 'u1')).toEqual({ logLevel: 'info', subscriptions: [['watch://a', 'watch', 'watch://a']] });
      expect(await b.sessionStates.load(digest, 'u2')).toBeUndefined();
      await b.sessionStates.save(digest, 'u1', { subscriptions: [] });
      expect(await a.sessionStates.load(digest, 'u1')).toEqual({ subscriptions: [] });
      await a.sessionStates.remove(digest);
      expect(await b.sessionStates.load(digest, 'u1')).toBeUndefined();
      const old = 'd'.repeat(64);
      await a.sessionStates.save(old, 'u1', { subscriptions: [] }, new Date(Date.now() - 8 * 24 * 3_600_000));
      await a.sessionStates.save(digest, 'u1', { subscriptions: [] });
      await a.cluster.forgetEndedBefore(new Date(Date.now() - 7 * 24 * 3_600_000));
      expect(await a.sessionStates.load(old, 'u1')).toBeUndefined();
      expect(await a.sessionStates.load(digest, 'u1')).toEqual({ subscriptions: [] });
    });

    test.skipIf(kind !== 'postgres')('a save is announced to the other process', async () => {
      const digest = 'e'.repeat(64);
      const heard: string[] = [];
      const listener = ({ digest: changed }: { digest: string }): void => void heard.push(changed);
      b.on('session-state-changed', listener);
      try {
        await a.sessionStates.save(digest, 'u1', { logLevel: 'error', subscriptions: [] });
        await waitFor(() => heard.includes(digest), 5_000, 'the session-state notice');
      } finally {
        b.off('session-state-changed', listener);
      }
    });
  });
}

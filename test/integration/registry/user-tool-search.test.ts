/**
 * A user's tool-search setting in the registry (migration 007) on both backends: stored as given,
 * read back with the user, removed with undefined, a bad value refused with the field named, and a
 * change announced (so the gateway's pool refreshes the user).
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ErrorCode } from '../../../src/errors.js';
import type { RegistryChange } from '../../../src/registry/registry-types.js';
import { ServerRegistry } from '../../../src/registry/server-registry.js';
import { backendsToTest } from '../../helpers/registry-backends.js';
import { testDatabaseForEachTest } from '../../helpers/test-database-for-each-test.js';

for (const { kind, skip } of await backendsToTest()) {
  describe.skipIf(skip !== undefined)(`user tool search on ${kind}${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
    const database = testDatabaseForEachTest(kind);
    let registry: ServerRegistry;
    beforeEach(async () => {
      registry = await ServerRegistry.open({ db: database.db, keyFile: join(database.dir, 'secret.key'), watch: false });
    });
    afterEach(async () => {
      await registry.close();
    });

    test('set, read back with the user (also after reopening), and removed', async () => {
      const alice = await registry.users.add('alice');
      expect(alice.toolSearch).toBeUndefined();
      const changes: RegistryChange[] = [];
      registry.on('change', (change) => changes.push(change));
      const updated = await registry.users.setToolSearch(alice, { mode: 'auto', maxTools: 25, pinned: ['fs__read_*'] });
      expect(updated.toolSearch).toEqual({ mode: 'auto', maxTools: 25, pinned: ['fs__read_*'] });
      expect(changes).toContainEqual(expect.objectContaining({ kind: 'user', action: 'updated', userId: alice.id }));
      await registry.close();
      registry = await ServerRegistry.open({ db: database.db, keyFile: join(database.dir, 'secret.key'), watch: false });
      expect((await registry.users.get('alice')).toolSearch).toEqual({ mode: 'auto', maxTools: 25, pinned: ['fs__read_*'] });
      expect((await registry.users.setToolSearch('alice', 'on')).toolSearch).toEqual({ mode: 'on' });
      expect((await registry.users.setToolSearch('alice', undefined)).toolSearch).toBeUndefined();
    });

    test('a bad value is an InvalidArgument naming the field; nothing is stored', async () => {
      await registry.users.add('bob');
      await expect(registry.users.setToolSearch('bob', 'sometimes' as never)).rejects.toMatchObject({ code: ErrorCode.InvalidArgument, message: 'users.bob.toolSearch.mode must be one of off, on, auto, got "sometimes".' });
      await expect(registry.users.setToolSearch('bob', { mode: 'auto', maxTools: -1 })).rejects.toThrow('users.bob.toolSearch.maxTools must be a whole number of at least 0, got -1.');
      expect((await registry.users.get('bob')).toolSearch).toBeUndefined();
    });
  });
}

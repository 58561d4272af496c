/**
 * Groups, tool rules, rate limits and endpoints in the registry on both backends: stored and read
 * back, announced as `access` changes, bad definitions refused naming the field, a removed user
 * leaving their groups, and a user's endpoint staying theirs.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ErrorCode } from '../../../src/errors.js';
import type { RegistryChange } from '../../../src/registry/registry-types.js';
import { ServerRegistry } from '../../../src/registry/server-registry.js';
import { backendsToTest } from '../../helpers/registry-backends.js';
import { testDatabaseForEachTest } from '../../helpers/test-database-for-each-test.js';

for (const { kind, skip } of await backendsToTest()) {
  describe.skipIf(skip !== undefined)(`access store on ${kind}${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
    const database = testDatabaseForEachTest(kind);
    let registry: ServerRegistry;
    beforeEach(async () => {
      registry = await ServerRegistry.open({ db: database.db, keyFile: `${database.dir}/secret.key`, watch: false });
    });
    afterEach(async () => registry.close());

    test('groups keep their members; a removed user leaves them; changes are announced', async () => {
      const changes: RegistryChange[] = [];
      registry.on('change', (change) => changes.push(change));
      const [sam, lee] = [await registry.users.add('sam'), await registry.users.add('lee')];
      await registry.groups.add('support');
      await registry.groups.addMember('support', 'sam');
      await registry.groups.addMember('support', 'lee');
      await registry.groups.addMember('support', 'lee');
      expect((await registry.groups.get('support')).members).toEqual(['lee', 'sam']);
      expect(await registry.groups.memberships()).toEqual(new Map([[sam.id, ['support']], [lee.id, ['support']]]));
      await registry.users.remove('lee');
      expect((await registry.groups.get('support')).members).toEqual(['sam']);
      expect(changes.filter((change) => change.kind === 'access').map((change) => change.action)).toEqual(['added', 'updated', 'updated', 'updated']);
      await expect(registry.groups.add('support')).rejects.toMatchObject({ code: ErrorCode.AlreadyExists });
      await expect(registry.groups.addMember('nobody', 'sam')).rejects.toMatchObject({ code: ErrorCode.NotFound });
      await registry.groups.remove('support');
      expect(await registry.groups.list()).toEqual([]);
    });

    test('rules, limits and endpoints are stored as given; bad ones are refused naming the field', async () => {
      const rule = await registry.access.addRule({ scope: { kind: 'group', name: 'support' }, effect: 'deny', annotations: { destructiveHint: true } });
      const limit = await registry.access.addLimit({ scope: { kind: 'user', name: 'sam' }, perMinute: 10, tools: ['search_*'] });
      expect(await registry.access.listRules()).toEqual([rule]);
      expect(await registry.access.listLimits()).toEqual([limit]);
      await expect(registry.access.addRule({ scope: { kind: 'team', name: 'x' }, effect: 'deny' })).rejects.toMatchObject({ code: ErrorCode.ConfigInvalid, message: expect.stringContaining('rule.scope') });
      await expect(registry.access.addLimit({ scope: { kind: 'global' }, perMinute: 0 })).rejects.toMatchObject({ code: ErrorCode.ConfigInvalid, message: expect.stringContaining('limit.perMinute') });
      await expect(registry.access.putEndpoint('bad name!', {})).rejects.toMatchObject({ code: ErrorCode.InvalidArgument });
      await expect(registry.access.putEndpoint('x', { renames: { a: 'has space' } })).rejects.toMatchObject({ code: ErrorCode.ConfigInvalid, message: expect.stringContaining('renames.a') });
      const saved = await registry.access.putEndpoint('support', { servers: ['kb'], annotations: { readOnlyHint: true }, access: { groups: ['support'] } });
      expect(await registry.access.getEndpoint('support')).toEqual(saved);
      await registry.access.putEndpoint('support', { servers: ['kb', 'files'] });
      expect((await registry.access.getEndpoint('support')).servers).toEqual(['kb', 'files']);
      await registry.access.removeRule(rule.id);
      await registry.access.removeLimit(limit.id);
      await expect(registry.access.removeRule(rule.id)).rejects.toMatchObject({ code: ErrorCode.NotFound });
      expect(await registry.access.everythingEndpoint()).toBe(true);
      await registry.access.setEverythingEndpoint(false);
      expect(await registry.access.everythingEndpoint()).toBe(false);
    });

    test("a user's endpoint is theirs: nobody else may take its name; removing the user removes it", async () => {
      const sam = await registry.users.add('sam');
      await registry.users.add('lee');
      const mine = await registry.access.putEndpoint('sams-tools', { servers: ['mine'] }, 'sam');
      expect(mine.ownerId).toBe(sam.id);
      await expect(registry.access.putEndpoint('sams-tools', {}, 'lee')).rejects.toMatchObject({ code: ErrorCode.AlreadyExists });
      await expect(registry.access.putEndpoint('sams-tools', {})).rejects.toMatchObject({ code: ErrorCode.AlreadyExists });
      await registry.users.remove('sam');
      expect(await registry.access.listEndpoints()).toEqual([]);
    });

    test('the SQL rate buckets refill evenly, take from every bucket or none, and hold under concurrent takes from two registries', async () => {
      const bucket = [{ key: 'a', perMinute: 3 }];
      for (let i = 0; i < 3; i++) expect(await registry.rateBuckets.take(bucket, 1_000)).toEqual({ ok: true });
      expect(await registry.rateBuckets.take(bucket, 1_000)).toEqual({ ok: false, key: 'a', retryAfterMs: 20_000 });
      expect(await registry.rateBuckets.take(bucket, 21_000)).toEqual({ ok: true });
      const small = { key: 'small', perMinute: 1 };
      const big = { key: 'big', perMinute: 2 };
      expect((await registry.rateBuckets.take([big, small], 0)).ok).toBe(true);
      expect(await registry.rateBuckets.take([big, small], 0)).toMatchObject({ ok: false, key: 'small' });
      expect((await registry.rateBuckets.take([big], 0)).ok).toBe(true);
      expect((await registry.rateBuckets.take([big], 0)).ok).toBe(false);
      // A second registry on the same database (a replica; on SQLite, the same one: better-sqlite3
      // waits for a lock synchronously, so two in one process would block each other): 25 takes at
      // once, 10 tokens between them.
      const other = kind === 'postgres' ? await ServerRegistry.open({ db: database.db, keyFile: `${database.dir}/secret.key`, watch: false }) : registry;
      try {
        const shared = [{ key: 'shared', perMinute: 10 }];
        const answers = await Promise.all(Array.from({ length: 25 }, (_, index) => (index % 2 === 0 ? registry : other).rateBuckets.take(shared, 5_000)));
        expect(answers.filter((answer) => answer.ok)).toHaveLength(10);
        // Two clocks 2 s apart (replicas on machines whose clocks differ), takes alternating between them:
        // the bucket gives its 60 tokens and about one more per second, not one more per take.
        const skewed = [{ key: 'skewed', perMinute: 60 }];
        let granted = 0;
        for (let index = 0; index < 300; index++) {
          const now = 100_000 + index * 10 + (index % 2 === 0 ? 0 : 2_000);
          if ((await (index % 2 === 0 ? registry : other).rateBuckets.take(skewed, now)).ok) granted++;
        }
        // 3 s of takes: 60 at the start, 3 refilled, and once the 2 s the clocks differ by.
        expect(granted).toBeLessThanOrEqual(60 + 3 + 2 + 1);
      } finally {
        if (other !== registry) await other.close();
      }
    });
  });
}

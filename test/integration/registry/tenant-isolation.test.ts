/**
 * Tenant isolation on both backends, through every library surface a tenant is given (the
 * TenantView, the client pool): user A cannot list, read, change, enable, disable, delete or call
 * user B's servers, see B's secrets, revoke B's tokens or read B's audit trail; shared servers are
 * visible to everyone by name only and cannot be changed by tenants.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ErrorCode, isSwitchboardError } from '../../../src/errors.js';
import { ClientPool } from '../../../src/pool/index.js';
import type { RegistryUser } from '../../../src/registry/registry-types.js';
import { ServerRegistry } from '../../../src/registry/server-registry.js';
import type { TenantView } from '../../../src/registry/tenant-view.js';
import { KITCHEN_SINK } from '../../helpers/fixtures.js';
import { backendsToTest, createTestDatabase, type TestDatabase } from '../../helpers/registry-backends.js';
import { codeOf } from '../../helpers/code-of.js';

const BOB_KEY = 'sk-bob-2f9a7c1e5d3b8a0f6e4c2d1b';
const SHARED_KEY = 'sk-shared-8e7d6c5b4a39281706f5e4d3';
const ADMIN_TEMPLATE_SECRET = 'tmpl-admin-0a1b2c3d4e5f6a7b8c9d';

for (const { kind, skip } of await backendsToTest()) {
  describe.skipIf(skip !== undefined)(`tenant isolation on ${kind}${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
    let database: TestDatabase;
    let registry: ServerRegistry;
    let alice: RegistryUser;
    let bob: RegistryUser;
    let asAlice: TenantView;
    let asBob: TenantView;

    beforeAll(async () => {
      database = await createTestDatabase(kind);
    });
    afterAll(async () => database?.drop());
    beforeEach(async () => {
      await database.reset();
      registry = await ServerRegistry.open({ db: database.db, keyFile: join(database.dir, 'secret.key'), resolveHost: async () => ['93.184.215.14'], watch: false });
      alice = await registry.users.add('alice');
      bob = await registry.users.add('bob');
      asAlice = registry.forUser(alice);
      asBob = registry.forUser(bob);
      await asBob.addServer('bobs', { url: 'https://mcp.example.com/bob', apiKey: BOB_KEY, headers: { 'X-Bob': 'bob-header-value-123456' } });
      await registry.servers.add(null, 'shared', { url: 'https://shared.example.com/mcp', apiKey: SHARED_KEY, description: 'Company search' });
      await registry.templates.add('sink', {
        command: process.execPath,
        args: [KITCHEN_SINK, '--tools', '{{tools}}'],
        env: { ADMIN_TOKEN: ADMIN_TEMPLATE_SECRET },
        parameters: [{ name: 'tools', pattern: '[a-z_]{1,30}' }],
      });
    });
    afterEach(async () => {
      await registry.close();
    });

    test('A does not see B\'s servers, nor anyone\'s secrets', async () => {
      const listed = await asAlice.listServers();
      expect(listed.map((server) => [server.name, server.shared])).toEqual([['shared', true]]);
      // A shared server shows its name, kind and description only: not its URL, not its key.
      expect(listed[0]?.entry).toEqual({ description: 'Company search' });
      const text = JSON.stringify(listed);
      for (const secret of [BOB_KEY, SHARED_KEY, 'https://shared.example.com', 'bob']) expect(text).not.toContain(secret);
      expect(JSON.stringify(await asAlice.listTemplates())).not.toContain(ADMIN_TEMPLATE_SECRET);
      // B sees his own server masked.
      const own = await asBob.getServer('bobs');
      expect(own.entry.apiKey).toBe(`••••${BOB_KEY.slice(-4)}`);
      expect(JSON.stringify(await asBob.listServers())).not.toContain(BOB_KEY);
    });

    test('A cannot read, change, enable, disable or delete B\'s server: it does not exist for A', async () => {
      expect(await codeOf(asAlice.getServer('bobs'))).toBe(ErrorCode.ServerNotFound);
      expect(await codeOf(asAlice.updateServer('bobs', { url: 'https://evil.example.com/mcp' }))).toBe(ErrorCode.ServerNotFound);
      expect(await codeOf(asAlice.setServerEnabled('bobs', false))).toBe(ErrorCode.ServerNotFound);
      expect(await codeOf(asAlice.removeServer('bobs'))).toBe(ErrorCode.ServerNotFound);
      const after = await asBob.getServer('bobs');
      expect(after).toMatchObject({ enabled: true, entry: { url: 'https://mcp.example.com/bob' } });
    });

    test('A registering the same name creates A\'s own server and leaves B\'s alone', async () => {
      await asAlice.addServer('bobs', { url: 'https://mcp.example.com/alice' });
      await asAlice.removeServer('bobs');
      const bobs = (await registry.configForUser(bob)).config.servers.find((spec) => spec.name === 'bobs');
      expect(bobs?.type === 'http' ? [bobs.url, bobs.headers.Authorization] : undefined).toEqual(['https://mcp.example.com/bob', `Bearer ${BOB_KEY}`]);
    });

    test('tenants cannot change or delete shared servers', async () => {
      const error = await asAlice.updateServer('shared', { url: 'https://evil.example.com/mcp' }).catch((caught: unknown) => caught);
      expect(isSwitchboardError(error) && [error.code, error.details.rules]).toEqual([ErrorCode.PolicyViolation, ['shared-read-only']]);
      expect(await codeOf(asAlice.removeServer('shared'))).toBe(ErrorCode.PolicyViolation);
      expect(await codeOf(asAlice.setServerEnabled('shared', false))).toBe(ErrorCode.PolicyViolation);
      expect(await codeOf(asAlice.addServer('shared', { url: 'https://evil.example.com/mcp' }))).toBe(ErrorCode.AlreadyExists);
      expect((await registry.servers.get(null, 'shared')).entry.url).toBe('https://shared.example.com/mcp');
    });

    test('A cannot revoke B\'s tokens or read B\'s audit trail; tokens authenticate their own user', async () => {
      const bobsToken = await asBob.createToken({ name: 'ci' });
      expect(await codeOf(asAlice.revokeToken(bobsToken.info.prefix))).toBe(ErrorCode.NotFound);
      expect(await codeOf(asAlice.revokeToken(bobsToken.info.id))).toBe(ErrorCode.NotFound);
      expect(await asAlice.listTokens()).toEqual([]);
      expect((await registry.verifyToken(bobsToken.token))?.id).toBe(bob.id);
      await registry.audit.record({ userId: bob.id, userName: 'bob', server: 'bobs', tool: 'secret_tool', ok: true, durationMs: 3 });
      expect(await asAlice.auditLog()).toEqual([]);
      expect((await asBob.auditLog()).map((entry) => entry.tool)).toEqual(['secret_tool']);
    });

    test('A cannot call B\'s tools: each pooled client holds its own user\'s servers', async () => {
      await asAlice.addServer('mine', { template: 'sink', parameters: { tools: 'alice_only' } });
      await asBob.addServer('mine', { template: 'sink', parameters: { tools: 'bob_only' } });
      await asBob.setServerEnabled('bobs', false);
      await registry.servers.setEnabled(null, 'shared', false);
      const pool = new ClientPool(registry, { clientOptions: { retryFailedServers: false } });
      try {
        await pool.withClient(alice, async (client) => {
          const names = client.listTools().map((tool) => tool.name);
          expect(names).toContain('alice_only');
          expect(names).not.toContain('bob_only');
          expect(await codeOf(client.callTool('bob_only', {}))).toBe(ErrorCode.ToolNotFound);
          expect(client.status().map((status) => status.name)).toEqual(['mine']);
        });
        await pool.withClient(bob, async (client) => {
          expect((await client.callTool('bob_only', { x: 'ok' })).isError).toBe(false);
        });
      } finally {
        await pool.close();
      }
    });
  });
}

/**
 * OAuth tokens per user in the registry (both backends), against a real authorization server and
 * protected MCP server: a user logs in once, the tokens are kept encrypted among that user's secrets,
 * and the gateway's pooled client of that user uses them; another user has none and is told which
 * command logs them in.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ServerConnection } from '../../../src/connection/server-connection.js';
import { ErrorCode } from '../../../src/errors.js';
import { ClientPool } from '../../../src/pool/index.js';
import { RegistryOAuthTokenStore } from '../../../src/registry/registry-oauth-token-store.js';
import { ServerRegistry } from '../../../src/registry/server-registry.js';
import { startOAuthProtectedServer, type OAuthFixture } from '../../fixtures/servers/oauth-protected-server.mjs';
import { specOf } from '../../helpers/fixtures.js';
import { backendsToTest, createTestDatabase, queryPostgres, type TestDatabase } from '../../helpers/registry-backends.js';

for (const { kind, skip } of await backendsToTest()) {
  describe.skipIf(skip !== undefined)(`OAuth tokens per user in the registry on ${kind}${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
    let database: TestDatabase;
    let registry: ServerRegistry;
    let fixture: OAuthFixture;
    let pool: ClientPool | undefined;

    beforeAll(async () => {
      database = await createTestDatabase(kind);
    });
    afterAll(async () => database?.drop());
    beforeEach(async () => {
      await database.reset();
      registry = await ServerRegistry.open({ db: database.db, keyFile: join(database.dir, 'secret.key'), watch: false });
      fixture = await startOAuthProtectedServer();
      await registry.users.add('alice');
      await registry.users.add('bob');
      // An administrator's shared server: every user reaches it, each with their own login.
      await registry.servers.add(null, 'remote', { url: fixture.url });
    });
    afterEach(async () => {
      await pool?.close();
      pool = undefined;
      await registry.close();
      await fixture.close();
    });

    /** Logs `user` in as a person would: the test plays the browser (the fixture approves at once). */
    async function logIn(user: string): Promise<void> {
      const store = new RegistryOAuthTokenStore(registry.userSecrets, user);
      const connection = new ServerConnection(specOf('remote', { url: fixture.url }), {
          oauth: {
            store,
            redirectUrl: 'http://127.0.0.1:1/callback',
            onAuthorizationUrl: async (url) => {
              const approval = await fetch(url, { redirect: 'manual' });
              return new URL(approval.headers.get('location') ?? '');
            },
          },
      });
      try {
        await connection.connect();
      } finally {
        await connection.close();
      }
    }

    test('a user\'s tokens are kept encrypted in the registry and used by that user\'s pooled client only', async () => {
      await logIn('alice');
      const [accessToken] = fixture.log.issued.accessTokens;
      expect(accessToken).toBeDefined();

      // Encrypted at rest: the token is nowhere in the database in clear text.
      const dump = kind === 'sqlite' ? readFileSync(database.file ?? '').toString('latin1') : JSON.stringify(await queryPostgres(database.db, 'select * from user_secrets'));
      expect(dump.length).toBeGreaterThan(0);
      for (const secret of fixture.secrets()) expect(dump.includes(secret)).toBe(false);
      // …and only alice's secrets hold it.
      expect((await new RegistryOAuthTokenStore(registry.userSecrets, 'alice').get(`${new URL(fixture.url).href} dynamic`))?.tokens?.access_token).toBe(accessToken);
      expect(await new RegistryOAuthTokenStore(registry.userSecrets, 'bob').get(`${new URL(fixture.url).href} dynamic`)).toBeUndefined();

      pool = new ClientPool(registry, { clientOptions: { retryFailedServers: false } });
      const alice = await pool.acquire('alice');
      const bob = await pool.acquire('bob');
      try {
        expect(alice.client.status().find((server) => server.name === 'remote')?.state).toBe('ready');
        expect((await alice.client.callTool('whoami', {})).isError).toBe(false);
        expect(fixture.log.authorizations).toHaveLength(1);

        const bobs = bob.client.status().find((server) => server.name === 'remote');
        expect(bobs).toMatchObject({ state: 'failed', error: { code: ErrorCode.ServerUnauthorized, hint: 'run: switchboard login remote --user bob' } });
      } finally {
        alice.release();
        bob.release();
      }
    });

    test('a revoked token is refreshed by the pooled client, and the refreshed tokens are stored for the user', async () => {
      await logIn('alice');
      const store = new RegistryOAuthTokenStore(registry.userSecrets, 'alice');
      const key = `${new URL(fixture.url).href} dynamic`;
      const before = (await store.get(key))?.tokens?.access_token;
      pool = new ClientPool(registry, { clientOptions: { retryFailedServers: false } });
      const alice = await pool.acquire('alice');
      try {
        fixture.revokeAccessTokens();
        expect((await alice.client.callTool('whoami', {})).isError).toBe(false);
        const after = (await store.get(key))?.tokens?.access_token;
        expect(after).toBeDefined();
        expect(after).not.toBe(before);
        expect(fixture.log.tokenRequests.some((request) => request.grantType === 'refresh_token')).toBe(true);
      } finally {
        alice.release();
      }
    });

    test('deleting a record forgets it; the pool can be told not to use OAuth at all', async () => {
      await logIn('alice');
      const store = new RegistryOAuthTokenStore(registry.userSecrets, 'alice');
      const key = `${new URL(fixture.url).href} dynamic`;
      await store.delete(key);
      expect(await store.get(key)).toBeUndefined();
      pool = new ClientPool(registry, { oauth: false, clientOptions: { retryFailedServers: false } });
      const alice = await pool.acquire('alice');
      try {
        const status = alice.client.status().find((server) => server.name === 'remote');
        expect(status?.state).toBe('failed');
        // Without OAuth, the hint is the generic one, not a login command for this user.
        expect(status?.error?.hint).not.toContain('--user');
      } finally {
        alice.release();
      }
    });
  });
}

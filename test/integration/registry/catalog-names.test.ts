/**
 * Names never depend on which servers are up, across gateway restarts (issue 15, defect 1): two
 * shared kitchen-sink servers that share most tool names. On the second run (a new registry handle
 * and pool, as after a restart) one of them fails to start — its script is gone, its spec unchanged —
 * and the names users see are still those of the first run, from the registry's tool catalog. Both
 * backends; real server processes.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ClientPool, type ClientPoolOptions, type UserClient } from '../../../src/pool/index.js';
import { ServerRegistry } from '../../../src/registry/server-registry.js';
import { KITCHEN_SINK } from '../../helpers/fixtures.js';
import { backendsToTest, createTestDatabase, queryPostgres, type TestDatabase } from '../../helpers/registry-backends.js';

const SECRET = 'catalog-test-secret-3f9a1c';

const namesOf = (client: UserClient): string[] => client.listTools().map((tool) => `${tool.server}:${tool.originalName}=${tool.name}`).sort();
const textOf = async (client: UserClient, name: string, args: Record<string, unknown>): Promise<string> =>
  (await client.callTool(name, args)).content.map((item) => (item.type === 'text' ? item.text : '')).join('\n');

for (const { kind, skip } of await backendsToTest()) {
  describe.skipIf(skip !== undefined)(`tool names across restarts on ${kind}${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
    let database: TestDatabase;
    let registry: ServerRegistry | undefined;
    let pool: ClientPool | undefined;
    let script: string;

    /** A gateway start: the registry opened anew and a fresh pool over it. */
    const start = async (options: ClientPoolOptions = {}): Promise<ClientPool> => {
      registry = await ServerRegistry.open({ db: database.db, keyFile: join(database.dir, 'secret.key'), watch: false });
      pool = new ClientPool(registry, { clientOptions: { retryFailedServers: false }, audit: false, ...options });
      return pool;
    };
    const stop = async (): Promise<void> => {
      await pool?.close();
      pool = undefined;
      await registry?.close();
      registry = undefined;
    };
    const namesFor = async (user: string): Promise<{ names: string[]; states: Record<string, string> }> => {
      if (pool === undefined) throw new Error('no pool');
      return pool.withClient(user, async (client) => ({ names: namesOf(client), states: Object.fromEntries(client.status().map((status) => [status.name, status.state])) }));
    };

    beforeAll(async () => {
      database = await createTestDatabase(kind);
    });
    afterAll(async () => database?.drop());
    beforeEach(async () => {
      await database.reset();
      // Server "two" runs this script; removing it makes the same spec fail to start.
      script = join(database.dir, 'two-server.mjs');
      writeFileSync(script, `await import(${JSON.stringify(pathToFileURL(KITCHEN_SINK).href)});\n`);
      const admin = await ServerRegistry.open({ db: database.db, keyFile: join(database.dir, 'secret.key'), watch: false });
      try {
        await admin.users.add('alice');
        await admin.users.add('bob');
        await admin.servers.add(null, 'one', { command: process.execPath, args: [KITCHEN_SINK, '--name', 'one', '--tools', 'one_tool'] });
        await admin.servers.add(null, 'two', { command: process.execPath, args: [script, '--name', 'two', '--tools', 'two_tool'], env: { TWO_TOKEN: SECRET } });
      } finally {
        await admin.close();
      }
    });
    afterEach(stop);

    test('a shared server that fails after a restart leaves every user\'s names as they were; the up server\'s calls work', async () => {
      await start();
      const first = await namesFor('alice');
      expect(first.states).toEqual({ one: 'ready', two: 'ready' });
      // Shared names are prefixed, the servers' own tools are not.
      expect(first.names).toContain('one:echo=one__echo');
      expect(first.names).toContain('two:echo=two__echo');
      expect(first.names).toContain('one:one_tool=one_tool');
      expect(first.names).toContain('two:two_tool=two_tool');
      await stop();

      rmSync(script);
      await start();
      const expected = first.names.filter((name) => name.startsWith('one:'));
      // alice had a client before the restart; bob never had one: the catalog is per spec, shared.
      for (const user of ['alice', 'bob']) {
        const second = await namesFor(user);
        expect(second.states).toEqual({ one: 'ready', two: 'failed' });
        expect(second.names).toEqual(expected);
      }
      await pool?.withClient('bob', async (client) => {
        expect(await textOf(client, 'one_tool', { query: 'hi' })).toBe('one/one_tool: hi');
        expect(await textOf(client, 'one__echo', { message: 'hi' })).toContain('hi');
      });
    });

    test('without the registry catalog (catalogCache: false) the same restart changes the names', async () => {
      await start({ catalogCache: false });
      const first = await namesFor('alice');
      expect(first.names).toContain('one:one_tool=one_tool');
      await stop();

      rmSync(script);
      await start({ catalogCache: false });
      const second = await namesFor('alice');
      expect(second.states.two).toBe('failed');
      // Nothing is known of "two": every name is prefixed until it lists — names changed under the user.
      expect(second.names).toContain('one:one_tool=one__one_tool');
      expect(second.names).not.toEqual(first.names.filter((name) => name.startsWith('one:')));
    });

    test('the catalog keeps only a keyed digest of each spec, the names and the time — no spec, no secret', async () => {
      await start();
      await namesFor('alice');
      await stop();
      const rows = kind === 'postgres' ? await queryPostgres(database.db, 'select * from tool_catalog') : await sqliteRows(database.file ?? '', 'select * from tool_catalog');
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(Object.keys(row).sort()).toEqual(['spec_hash', 'tools', 'updated_at']);
        expect(String(row.spec_hash)).toMatch(/^[0-9a-f]{64}$/);
        expect(JSON.stringify(row)).not.toContain(SECRET);
        expect(JSON.stringify(row)).not.toContain('two-server.mjs');
      }
      const tools = rows.map((row) => JSON.parse(String(row.tools)) as string[]);
      expect(tools.some((list) => list.includes('two_tool') && list.includes('echo'))).toBe(true);
    });
  });
}

/** Rows of an SQLite file, read with the driver the registry uses. */
async function sqliteRows(file: string, text: string): Promise<Array<Record<string, unknown>>> {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(text).all() as Array<Record<string, unknown>>;
  } finally {
    db.close();
  }
}

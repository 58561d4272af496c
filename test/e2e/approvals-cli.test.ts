/**
 * `switchboard approvals list | approve ID | deny ID` (the built CLI) against a real gateway on both
 * registry backends: a write of an SDK v2 client on an endpoint with approval for writes waits, the
 * CLI lists it (who, which tool, the arguments), approves one (it runs) and denies another (it does
 * not); a stale id, a non-admin's token, no gateway and an id that looks like flags are refused with what to do.
 */
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Client as V2Client } from '@modelcontextprotocol/client';
import { ROOT } from '../helpers/fixtures.js';
import { connectV2, startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { waitFor } from '../helpers/processes.js';
import { backendsToTest, createTestDatabase, type TestDatabase } from '../helpers/registry-backends.js';
import { runCli } from '../helpers/run-cli.js';

const MEMORY = resolve(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');

for (const { kind, skip } of await backendsToTest()) {
  describe.skipIf(skip !== undefined)(`approvals CLI on ${kind}${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
    let database: TestDatabase;
    let gateway: TestGateway;
    let client: V2Client;
    let sam: { token: string };

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      gateway = await startTestGateway({ db: database.db, servers: { memory: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: join(database.dir, 'memory.jsonl') } } } });
      sam = await gateway.addUser('sam');
      const put = await gateway.api('/api/endpoints/writers', { method: 'PUT', body: { servers: ['memory'], access: { users: ['sam'] }, approval: { writes: true, timeoutSeconds: 60 } } });
      expect(put.status, await put.clone().text()).toBe(201);
      client = await connectV2(new URL(`${gateway.url}/mcp/e/writers`), sam.token, 'legacy');
    }, 60_000);

    afterAll(async () => {
      await client?.close();
      await gateway?.close();
      await database?.drop();
    });

    const cli = (...args: string[]) => runCli(['approvals', ...args, '--url', gateway.url], { cwd: database.dir, env: { SWITCHBOARD_TOKEN: gateway.adminToken, HOME: database.dir } });
    const create = (name: string) => client.callTool({ name: 'create_entities', arguments: { entities: [{ name, entityType: 'customer', observations: [] }] } }) as Promise<{ isError?: boolean; content: Array<{ text: string }> }>;
    const waitingId = async (name: string): Promise<string> => {
      let id: string | undefined;
      await waitFor(async () => {
        const listed = await cli('list', '--json');
        id = (JSON.parse(listed.stdout) as Array<{ id: string; arguments: { entities: Array<{ name: string }> } }>).find((call) => call.arguments.entities[0]?.name === name)?.id;
        return id !== undefined;
      }, 15_000, `the call creating ${name} to wait`);
      return id ?? '';
    };

    test('lists a waiting call, approves one (it runs) and denies another (it does not)', async () => {
      const approved = create('approved-by-cli');
      const id = await waitingId('approved-by-cli');
      const listed = await cli('list');
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toMatch(new RegExp(`${id}  sam on writers: create_entities \\(server memory\\) \\{"entities":\\[\\{"name":"approved-by-cli"`));
      const approve = await cli('approve', id);
      expect(approve.code, approve.stderr).toBe(0);
      expect(approve.stdout).toContain(`approved ${id}`);
      expect((await approved).isError).not.toBe(true);

      const denied = create('denied-by-cli');
      const deniedId = await waitingId('denied-by-cli');
      expect((await cli('deny', deniedId)).code).toBe(0);
      expect((await denied).content[0]?.text).toMatch(/denied by a person reviewing it/);
      expect((await cli('list')).stdout).toContain('no calls are waiting for approval');
      const graph = JSON.stringify(await client.callTool({ name: 'read_graph', arguments: {} }));
      expect(graph).toContain('approved-by-cli');
      expect(graph).not.toContain('denied-by-cli');
    });

    test('a decided id, a non-admin token, no gateway and a missing id are refused with what to do', async () => {
      const stale = await cli('approve', 'no-such-call');
      expect(stale.code).toBe(1);
      expect(stale.stderr).toContain('this call is no longer waiting for approval');
      const tenant = await runCli(['approvals', 'list', '--url', gateway.url, '--token', sam.token], { cwd: database.dir, env: { HOME: database.dir } });
      expect(tenant.code).toBe(1);
      expect(tenant.stderr).toContain("approvals need an administrator's token");
      const nowhere = await runCli(['approvals', 'list', '--url', 'http://127.0.0.1:9'], { cwd: database.dir, env: { HOME: database.dir } });
      expect(nowhere.stderr).toContain('no gateway answers at http://127.0.0.1:9');
      const missing = await cli('approve');
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('name the waiting call');
      // An id that looks like bundled short flags (one with an h once printed the help and exited 0).
      const dashed = await cli('approve', '-Bxh');
      expect(dashed.code).toBe(2);
      expect(dashed.stderr).toContain('"-B…" is not an option');
      for (const run of [stale, tenant, nowhere, missing, dashed]) expect(run.stderr).not.toMatch(/\n\s+at /);
    });
  });
}

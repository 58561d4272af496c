/**
 * `switchboard serve --stdio` honours the administrator's `/mcp` switch as the HTTP gateway does, on
 * both registry backends, with the SDK v1 stdio client and the Inspector CLI: with `/mcp` off a
 * tenant's everything endpoint is refused at start (naming their endpoints), `--endpoint NAME` serves
 * that endpoint's selection with the user's rules, and a connection open when the switch goes off ends.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { KITCHEN_SINK, ROOT } from '../helpers/fixtures.js';
import { isAlive, waitFor } from '../helpers/processes.js';
import { backendsToTest, createTestDatabase, type TestDatabase } from '../helpers/registry-backends.js';
import { SWITCHBOARD_BIN, runCli, runProcess } from '../helpers/run-cli.js';
import { ServerRegistry } from '../../src/registry/server-registry.js';

const INSPECTOR_CLI = resolve(ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build/cli.js');

for (const { kind, skip } of await backendsToTest()) {
  describe.skipIf(skip !== undefined)(`serve --stdio and the /mcp switch on ${kind}${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
    let database: TestDatabase;
    let registry: ServerRegistry;
    let dir: string;
    let work: string;
    let serveArgs: (user: string, ...more: string[]) => string[];

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      dir = mkdtempSync(join(tmpdir(), 'sb-stdio-access-'));
      writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
      work = join(dir, 'work');
      mkdirSync(join(work, '.switchboard'), { recursive: true });
      writeFileSync(join(work, 'switchboard.yaml'), `mcpServers:\n  sink:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(KITCHEN_SINK)}]\n`);
      // The CLI finds the key where it would (next to an SQLite file; under ./.switchboard for PostgreSQL).
      registry = await ServerRegistry.open({ db: database.db, ...(kind === 'postgres' ? { keyFile: join(work, '.switchboard', 'secret.key') } : {}), watchIntervalMs: 50 });
      await registry.users.add('admin', { isAdmin: true });
      await registry.users.add('ian');
      await registry.access.putEndpoint('sink-reads', { servers: ['sink'], tools: ['echo', 'add'], access: { users: ['ian'] } });
      await registry.access.addRule({ scope: { kind: 'user', name: 'ian' }, effect: 'deny', tools: ['add'] });
      serveArgs = (user, ...more) => [SWITCHBOARD_BIN, 'serve', '--stdio', '--config', join(work, 'switchboard.yaml'), '--db', database.db, '--user', user, ...more];
    }, 30_000);

    afterAll(async () => {
      await registry?.close();
      await database?.drop();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    test('with /mcp off, a tenant\'s stdio gateway refuses to start and names their endpoint; --endpoint serves it with their rules', async () => {
      await registry.access.setEverythingEndpoint(false);
      try {
        const refused = await runCli(serveArgs('ian').slice(1), { cwd: work, stdin: '' });
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toContain('the administrator turned /mcp off');
        expect(refused.stderr).toContain('--endpoint NAME: sink-reads');
        expect(refused.stderr).not.toMatch(/\n\s+at /);
        // The endpoint selects echo and add; ian's rule denies add: only echo is listed and callable.
        const listed = await runProcess(process.execPath, [INSPECTOR_CLI, '--cli', '--method', 'tools/list', '--', process.execPath, ...serveArgs('ian', '--endpoint', 'sink-reads')], { cwd: work, label: 'inspector tools/list' });
        expect(listed.code, listed.stderr).toBe(0);
        expect((JSON.parse(listed.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toEqual(['echo']);
        const client = new Client({ name: 'stdio-access', version: '1.0.0' });
        await client.connect(new StdioClientTransport({ command: process.execPath, args: serveArgs('ian', '--endpoint', 'sink-reads'), cwd: work, stderr: 'pipe' }));
        try {
          expect(await client.callTool({ name: 'echo', arguments: { message: 'hi' } })).toMatchObject({ content: [{ type: 'text', text: expect.stringContaining('hi') as string }] });
          const denied = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }).then((result) => JSON.stringify(result), (error: Error) => error.message);
          expect(denied).toMatch(/tool \\?"add\\?" is not available/);
        } finally {
          await client.close();
        }
        // Admins keep /mcp over stdio too.
        const admin = await runProcess(process.execPath, [INSPECTOR_CLI, '--cli', '--method', 'tools/list', '--', process.execPath, ...serveArgs('admin')], { cwd: work, label: 'inspector admin' });
        expect(admin.code, admin.stderr).toBe(0);
      } finally {
        await registry.access.setEverythingEndpoint(true);
      }
    }, 60_000);

    test('a stdio connection open when the administrator turns /mcp off ends', async () => {
      const transport = new StdioClientTransport({ command: process.execPath, args: serveArgs('ian'), cwd: work, stderr: 'pipe' });
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const client = new Client({ name: 'stdio-access', version: '1.0.0' });
      await client.connect(transport);
      const pid = transport.pid ?? 0;
      try {
        expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo');
        await registry.access.setEverythingEndpoint(false);
        await waitFor(() => !isAlive(pid), 15_000, 'the stdio gateway to stop once /mcp is off');
        expect(stderr).toContain('the administrator turned /mcp off: the stdio gateway stops');
      } finally {
        await client.close().catch(() => {});
        await registry.access.setEverythingEndpoint(true);
      }
    }, 60_000);
  });
}

/**
 * The access commands of the built CLI on both backends: groups, endpoints (with the connection
 * snippets of Claude Desktop, Cursor and VS Code), tool rules, rate limits and the switch of /mcp —
 * stored where the gateway reads them, and bad input refused with what was wrong (exit 2 for usage
 * and invalid definitions, 1 for a missing record).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ServerRegistry } from '../../src/registry/server-registry.js';
import { backendsToTest, createTestDatabase, type TestDatabase } from '../helpers/registry-backends.js';
import { runCli } from '../helpers/run-cli.js';

for (const { kind, skip } of await backendsToTest()) {
  describe.skipIf(skip !== undefined)(`access CLI on ${kind}${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
    let database: TestDatabase;
    const run = (...args: string[]) => runCli(args, { cwd: database.dir, env: { SWITCHBOARD_DB: database.db, HOME: database.dir, NO_COLOR: '1' } });

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      for (const name of ['sam', 'lee']) expect((await run('users', 'add', name)).code).toBe(0);
    }, 60_000);
    afterAll(async () => database?.drop());

    test('groups, endpoints, rules, limits and the /mcp switch are stored as the gateway reads them', async () => {
      expect((await run('groups', 'add', 'support', '--member', 'sam')).stdout).toContain('added group support (sam)');
      expect((await run('groups', 'add-member', 'support', 'lee')).stdout).toContain('(lee, sam)');
      const put = await run('endpoints', 'put', 'support', '--server', 'kb', '--tool', 'kb/search*', '--read-only', '--group', 'support', '--approve-writes');
      expect(put.code, put.stderr).toBe(0);
      expect(put.stdout).toContain('served at /mcp/e/support');
      const shown = await run('endpoints', 'show', 'support', '--url', 'https://mcp.example.com/', '--json');
      const snippets = (JSON.parse(shown.stdout) as { url: string; snippets: { claudeDesktop: { mcpServers: Record<string, { args: string[] }> }; cursor: { mcpServers: Record<string, { url: string }> }; vscode: { servers: Record<string, { type: string; url: string }> } } });
      expect(snippets.url).toBe('https://mcp.example.com/mcp/e/support');
      expect(snippets.snippets.cursor.mcpServers['switchboard-support']?.url).toBe(snippets.url);
      expect(snippets.snippets.vscode.servers['switchboard-support']).toMatchObject({ type: 'http', url: snippets.url });
      expect(snippets.snippets.claudeDesktop.mcpServers['switchboard-support']?.args).toContain(snippets.url);
      const rule = await run('rules', 'add', '--deny', '--scope', 'group:support', '--destructive', 'true', '--json');
      expect(rule.code, rule.stderr).toBe(0);
      const ruleId = (JSON.parse(rule.stdout) as { id: string }).id;
      expect((await run('rules', 'list')).stdout).toContain(`${ruleId}: deny destructiveHint=true for group support`);
      expect((await run('limits', 'add', '--scope', 'endpoint:support', '--per-minute', '30', '--per-caller')).stdout).toMatch(/30\/min for endpoint:support, per caller/);
      expect((await run('endpoints', 'everything', 'off')).code).toBe(0);

      const registry = await ServerRegistry.open({ db: database.db, keyFile: `${database.dir}/${kind === 'sqlite' ? '' : '.switchboard/'}secret.key`, watch: false });
      try {
        expect((await registry.groups.get('support')).members).toEqual(['lee', 'sam']);
        expect(await registry.access.getEndpoint('support')).toMatchObject({ servers: ['kb'], tools: ['kb/search*'], annotations: { readOnlyHint: true }, access: { groups: ['support'] }, approval: { writes: true } });
        expect((await registry.access.listRules()).map((stored) => stored.id)).toEqual([ruleId]);
        expect(await registry.access.listLimits()).toMatchObject([{ scope: { kind: 'endpoint', name: 'support' }, perMinute: 30, perCaller: true }]);
        expect(await registry.access.everythingEndpoint()).toBe(false);
      } finally {
        await registry.close();
      }
      expect((await run('rules', 'remove', ruleId)).code).toBe(0);
      expect((await run('rules', 'list')).stdout).toContain('no tool rules');
      // Thirteen CLI processes one after another: under a full suite's load each takes seconds.
    }, 120_000);

    test('bad input says what was wrong', async () => {
      const scope = await run('rules', 'add', '--deny', '--scope', 'team:x');
      expect(scope.code).toBe(2);
      expect(scope.stderr).toContain('--scope takes global, endpoint:NAME, group:NAME or user:NAME, got "team:x"');
      const both = await run('rules', 'add', '--deny', '--allow');
      expect(both.code).toBe(2);
      expect(both.stderr).toContain('exactly one of --allow and --deny');
      const bad = await run('endpoints', 'put', 'x', '--definition', '{"naming":"sometimes"}');
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('naming');
      expect(bad.stderr).not.toMatch(/\n\s+at /);
      const missing = await run('groups', 'add-member', 'nobody', 'sam');
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('there is no group "nobody"');
    });
  });
}

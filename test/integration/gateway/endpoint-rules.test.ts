/**
 * The rule types the support scenario (endpoints.test.ts) does not reach, through real clients (SDK
 * v1, SDK v2, the Inspector CLI) on both registry backends: allow rules (an allow-list: only what
 * they match is listed and callable, and the audit log names the allow rule that let a call through),
 * `servers` globs in rules and endpoints, the three naming strategies of an endpoint, rate limits
 * with a `tools` glob (one bucket per tool) and group-scoped limits (shared, and per caller). Every
 * test makes its own users, groups, rules and endpoints (unique names), so none depends on another;
 * the rate limits run on an injected clock (no sleeping).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RegistryUser } from '../../../src/registry/registry-types.js';
import { KITCHEN_SINK, ROOT } from '../../helpers/fixtures.js';
import { connectV1, connectV2, startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { waitFor } from '../../helpers/processes.js';
import { backendsToTest, createTestDatabase, type TestDatabase } from '../../helpers/registry-backends.js';
import { runProcess } from '../../helpers/run-cli.js';

const INSPECTOR_CLI = resolve(ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build/cli.js');
const MEMORY = resolve(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');

type Result = { isError?: boolean; content?: Array<{ text?: string }>; structuredContent?: unknown };
interface ToolCaller {
  callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
}

/** The text of a call's outcome: `ok: …`, `result: …` (an error result) or `error: …` (a protocol error). */
async function outcome(call: Promise<unknown>): Promise<string> {
  try {
    const result = (await call) as Result;
    return `${result.isError === true ? 'result' : 'ok'}: ${result.content?.[0]?.text ?? ''}`;
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

const names = async (client: ToolCaller): Promise<string[]> => (await client.listTools()).tools.map((tool) => tool.name).sort();

for (const { kind, skip } of await backendsToTest()) {
  describe.skipIf(skip !== undefined)(`allow rules, server globs, naming and per-tool/group limits on ${kind}${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
    let database: TestDatabase;
    let gateway: TestGateway;
    let dir: string;
    let now = 5_000_000;
    let seq = 0;
    const clients: Array<{ close(): Promise<void> }> = [];

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      dir = mkdtempSync(join(tmpdir(), 'sb-endpoint-rules-'));
      // The Inspector CLI needs a package.json in the parent of its working folder.
      writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
      mkdirSync(join(dir, 'work'));
      gateway = await startTestGateway({
        db: database.db,
        servers: {
          memory: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } },
          sink: { command: process.execPath, args: [KITCHEN_SINK, '--name', 'sink'] },
          sink2: { command: process.execPath, args: [KITCHEN_SINK, '--name', 'sink2'] },
        },
        access: { now: () => now },
      });
    }, 60_000);

    afterAll(async () => {
      await Promise.all(clients.map((client) => client.close().catch(() => {})));
      await gateway?.close();
      await database?.drop();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    // Whatever an earlier test took, every bucket is full again a minute later.
    beforeEach(() => {
      now += 120_000;
    });

    const track = <T extends { close(): Promise<void> }>(client: T): T => {
      clients.push(client);
      return client;
    };
    /** A user of this test only. */
    const user = (name: string): Promise<{ user: RegistryUser; token: string }> => gateway.addUser(`${name}-${++seq}`);
    const created = async (path: string, body: unknown, method = 'POST'): Promise<Record<string, unknown>> => {
      const response = await gateway.api(path, { method, body });
      expect(response.status, await response.clone().text()).toBe(201);
      return (await response.json()) as Record<string, unknown>;
    };
    const group = async (name: string, members: RegistryUser[]): Promise<string> => {
      const unique = `${name}-${++seq}`;
      await created('/api/groups', { name: unique, members: members.map((member) => member.name) });
      return unique;
    };

    test('an allow rule is an allow-list: only what it matches is listed and callable (SDK v1, v2, Inspector, REST), and the audit row names the allow rule', async () => {
      const dana = await user('dana');
      const other = await user('olga');
      const data = await group('data', [dana.user]);
      const { rule } = (await created('/api/rules', { scope: { kind: 'group', name: data }, effect: 'allow', servers: ['memory'], tools: ['read_*', 'search_nodes'] })) as { rule: { id: string } };
      const allowed = ['read_graph', 'search_nodes'];
      const v1 = track(await connectV1(gateway.mcpUrl, dana.token));
      const v2 = track(await connectV2(gateway.mcpUrl, dana.token, 'legacy'));
      for (const client of [v1, v2]) expect(await names(client)).toEqual(allowed);
      const inspected = await runProcess(process.execPath, [INSPECTOR_CLI, '--cli', gateway.mcpUrl.toString(), '--transport', 'http', '--header', `Authorization: Bearer ${dana.token}`, '--method', 'tools/list'], { cwd: join(dir, 'work'), label: 'inspector tools/list' });
      expect(inspected.code, inspected.stderr).toBe(0);
      expect((JSON.parse(inspected.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name).sort()).toEqual(allowed);
      expect(await outcome(v2.callTool({ name: 'read_graph', arguments: {} }))).toMatch(/^ok: /);
      // Outside the list: a memory tool the globs miss, a tool of another server, and nothing at all — one refusal.
      const refusals = await Promise.all(['create_entities', 'sink__echo', 'no_such_tool'].map(async (name) => (await outcome(v1.callTool({ name, arguments: {} }))).replace(name, 'NAME')));
      expect(new Set(refusals).size, refusals.join('\n')).toBe(1);
      expect(refusals[0]).toContain('is not available');
      expect((await gateway.api('/api/tools/sink__echo/call', { token: dana.token, body: { arguments: { message: 'x' } } })).status).toBe(404);
      expect((await gateway.api('/api/tools/search_nodes/call', { token: dana.token, body: { arguments: { query: 'x' } } })).status).toBe(200);
      // The allow rule binds its group only.
      expect(await names(track(await connectV2(gateway.mcpUrl, other.token, 'legacy')))).toEqual(expect.arrayContaining(['create_entities', 'sink__echo']));
      await waitFor(async () => (await gateway.registry.audit.list({ user: dana.user, limit: 50 })).some((entry) => entry.decision === 'allow' && entry.tool === 'read_graph'), 10_000, 'the allow decision in the audit log');
      const audit = await gateway.registry.audit.list({ user: dana.user, limit: 50 });
      expect(audit.find((entry) => entry.decision === 'allow' && entry.tool === 'read_graph')).toMatchObject({ ok: true, server: 'memory', rule: `${rule.id}: allow servers memory tools read_*,search_nodes for group ${data}` });
      expect(audit.find((entry) => entry.decision === 'deny' && entry.tool === 'create_entities')).toMatchObject({ ok: false, rule: 'not-allowed-by-any-rule' });
    });

    test('a servers glob in a deny rule removes every tool of the matching servers, and only theirs', async () => {
      const sid = await user('sid');
      await created('/api/rules', { scope: { kind: 'user', name: sid.user.name }, effect: 'deny', servers: ['sink*'] });
      const client = track(await connectV1(gateway.mcpUrl, sid.token));
      const listed = await names(client);
      expect(listed.filter((name) => name.startsWith('sink'))).toEqual([]);
      expect(listed).toEqual(expect.arrayContaining(['create_entities', 'read_graph']));
      expect(await outcome(client.callTool({ name: 'sink2__echo', arguments: { message: 'x' } }))).toContain('is not available');
      expect(await outcome(client.callTool({ name: 'read_graph', arguments: {} }))).toMatch(/^ok: /);
    });

    test('naming strategies and a servers glob of an endpoint: prefix, none (where unambiguous), on-conflict; each name routes to its upstream tool', async () => {
      const nia = await user('nia');
      const access = { users: [nia.user.name] };
      const endpoint = (name: string): string => `${name}-${++seq}`;
      const prefixed = endpoint('prefixed');
      const plain = endpoint('plain');
      const sinks = endpoint('sinks');
      await created(`/api/endpoints/${prefixed}`, { servers: ['memory', 'sink'], tools: ['read_graph', 'echo'], naming: 'prefix', access }, 'PUT');
      await created(`/api/endpoints/${plain}`, { servers: ['sink', 'memory'], tools: ['echo', 'count', 'read_graph'], naming: 'none', access }, 'PUT');
      await created(`/api/endpoints/${sinks}`, { servers: ['sink*'], tools: ['echo', 'read_graph'], naming: 'none', access }, 'PUT');
      const at = (name: string): URL => new URL(`${gateway.url}/mcp/e/${name}`);
      const onPrefixed = track(await connectV2(at(prefixed), nia.token, 'auto'));
      expect(await names(onPrefixed)).toEqual(['memory_read_graph', 'sink_echo']);
      const onPlain = track(await connectV1(at(plain), nia.token));
      // On /mcp both sinks' tools are qualified (sink__echo: their names clash); here only one sink is selected.
      expect(await names(onPlain)).toEqual(['count', 'echo', 'read_graph']);
      const onSinks = track(await connectV2(at(sinks), nia.token, 'legacy'));
      // The glob takes both sinks (memory's read_graph stays out); `echo` is ambiguous, so each keeps its /mcp name.
      expect(await names(onSinks)).toEqual(['sink2__echo', 'sink__echo']);
      // The user's own /mcp reaches the same server processes (each user has their own).
      const own = track(await connectV2(gateway.mcpUrl, nia.token, 'legacy'));
      const counts = async (): Promise<string[]> => [await outcome(own.callTool({ name: 'sink__count', arguments: {} })), await outcome(own.callTool({ name: 'sink2__count', arguments: {} }))];
      const before = await counts();
      expect(await outcome(onPlain.callTool({ name: 'echo', arguments: { message: 'plain' } }))).toBe('ok: plain');
      expect(await outcome(onPrefixed.callTool({ name: 'sink_echo', arguments: { message: 'prefixed' } }))).toBe('ok: prefixed');
      expect(await outcome(onSinks.callTool({ name: 'sink2__echo', arguments: { message: 'second' } }))).toBe('ok: second');
      const after = await counts();
      // Two calls reached `sink`, one reached `sink2`.
      const delta = after.map((text, index) => Number(/\d+/.exec(text)?.[0]) - Number(/\d+/.exec(before[index] ?? '')?.[0]));
      expect(delta).toEqual([2, 1]);
      expect(await outcome(onPrefixed.callTool({ name: 'read_graph', arguments: {} }))).toContain('is not available');
      expect(await outcome(onPrefixed.callTool({ name: 'memory_read_graph', arguments: {} }))).toMatch(/^ok: /);
      expect(await outcome(onPlain.callTool({ name: 'sink__echo', arguments: { message: 'old name' } }))).toContain('is not available');
    });

    test('a limit with a tools glob gives each matching tool its own bucket; tools it does not name are not counted', async () => {
      const tia = await user('tia');
      await created('/api/limits', { scope: { kind: 'user', name: tia.user.name }, perMinute: 2, tools: ['echo', 'add'] });
      const client = track(await connectV2(gateway.mcpUrl, tia.token, 'legacy'));
      const echo = (name: string) => outcome(client.callTool({ name, arguments: { message: name } }));
      expect([await echo('sink__echo'), await echo('sink__echo')]).toEqual(['ok: sink__echo', 'ok: sink__echo']);
      expect(await echo('sink__echo')).toMatch(/^result: rate limit reached for "sink__echo": 2 calls per minute per tool \(echo, add\) per caller for user tia-\d+; retry in 30 s/);
      // The other server's echo and the other named tool have buckets of their own; a tool not named has none.
      expect([await echo('sink2__echo'), await echo('sink2__echo')]).toEqual(['ok: sink2__echo', 'ok: sink2__echo']);
      expect(await echo('sink2__echo')).toMatch(/^result: rate limit reached for "sink2__echo"/);
      for (let i = 0; i < 2; i++) expect(await outcome(client.callTool({ name: 'sink__add', arguments: { a: i, b: 1 } }))).toBe(`ok: ${i + 1}`);
      expect(await outcome(client.callTool({ name: 'sink__add', arguments: { a: 0, b: 0 } }))).toMatch(/rate limit reached for "sink__add"/);
      for (let i = 0; i < 4; i++) expect(await outcome(client.callTool({ name: 'sink__count', arguments: {} }))).toMatch(/^ok: /);
      // 30 s on the injected clock: one token back in each bucket.
      now += 30_000;
      expect(await echo('sink__echo')).toBe('ok: sink__echo');
      expect(await echo('sink__echo')).toMatch(/rate limit reached/);
      const rest = await gateway.api('/api/tools/sink__echo/call', { token: tia.token, body: { arguments: { message: 'rest' } } });
      expect(rest.status).toBe(429);
    });

    test('a group-scoped limit is shared by the group\'s members (per caller when it says so) and binds no one else', async () => {
      const [ada, ben, cy] = await Promise.all([user('ada'), user('ben'), user('cy')]);
      const shared = await group('shared', [ada.user, ben.user]);
      const each = await group('each', [ada.user, ben.user]);
      await created('/api/limits', { scope: { kind: 'group', name: shared }, perMinute: 3 });
      const [onAda, onBen, onCy] = [track(await connectV1(gateway.mcpUrl, ada.token)), track(await connectV2(gateway.mcpUrl, ben.token, 'legacy')), track(await connectV2(gateway.mcpUrl, cy.token, 'auto'))];
      const echo = (client: ToolCaller) => outcome(client.callTool({ name: 'sink__echo', arguments: { message: 'm' } }));
      expect([await echo(onAda), await echo(onAda), await echo(onBen)]).toEqual(['ok: m', 'ok: m', 'ok: m']);
      expect(await echo(onAda)).toMatch(new RegExp(`rate limit reached for "sink__echo": 3 calls per minute for group ${shared}; retry in 20 s`));
      expect(await echo(onBen)).toMatch(/rate limit reached/);
      for (let i = 0; i < 4; i++) expect(await echo(onCy)).toBe('ok: m');
      // A per-caller limit of another group on top: each member has one call a minute of their own.
      now += 120_000;
      await created('/api/limits', { scope: { kind: 'group', name: each }, perMinute: 1, perCaller: true });
      for (const client of [onAda, onBen]) {
        expect(await echo(client)).toBe('ok: m');
        expect(await echo(client)).toMatch(new RegExp(`1 calls per minute per caller for group ${each}`));
      }
      expect(await echo(onCy)).toBe('ok: m');
    });
  });
}

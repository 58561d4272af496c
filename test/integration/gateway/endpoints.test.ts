/**
 * Named endpoints and tool policy through real clients (SDK v1, SDK v2, the Inspector CLI) on a real
 * gateway with three real servers (server-memory, server-filesystem, the kitchen-sink fixture), on
 * both registry backends: a support user on /mcp/e/support lists exactly the 6 chosen tools (with a
 * rename and a description override that route to the right upstream tool), cannot call any other
 * tool by any route, and gets the rate limit's error on the 6th call in a minute (an injected clock:
 * no sleeping); a denied destructive tool is neither listed nor callable on /mcp; rule changes reach
 * connected clients as list_changed; each decision is in the audit log with its rule. The gateway,
 * the users, the support group and the support endpoint are set up once and never changed; each test
 * adds (and removes) the rules, limits and endpoints it needs, and starts with full rate buckets, so
 * the tests pass in any order (`--sequence.shuffle`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { Client as V2Client } from '@modelcontextprotocol/client';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { RegistryUser } from '../../../src/registry/registry-types.js';
import { KITCHEN_SINK, ROOT } from '../../helpers/fixtures.js';
import { connectV1, connectV2, startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { backendsToTest, createTestDatabase, type TestDatabase } from '../../helpers/registry-backends.js';
import { waitFor } from '../../helpers/processes.js';
import { runProcess } from '../../helpers/run-cli.js';

const INSPECTOR_CLI = resolve(ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build/cli.js');
const pkg = (name: string): string => resolve(ROOT, `node_modules/@modelcontextprotocol/${name}/dist/index.js`);
const WAIT_MS = 10_000;

const SUPPORT_TOOLS = ['browse_docs', 'echo', 'open_nodes', 'read_graph', 'read_text_file', 'search_nodes'];
const SUPPORT_ENDPOINT = {
  description: 'The support agent: six read-only tools from three servers',
  servers: ['memory', 'files', 'sink'],
  tools: ['memory/read_graph', 'memory/search_nodes', 'memory/open_nodes', 'memory/delete_entities', 'files/read_text_file', 'files/list_directory', 'sink/echo'],
  // delete_entities is named above but is not read-only: the annotation filter keeps it out.
  annotations: { readOnlyHint: true },
  renames: { 'files/list_directory': 'browse_docs' },
  descriptions: { 'memory/search_nodes': 'Search the support knowledge base.' },
  access: { groups: ['support'] },
};

/** The text of a failed call, whatever form the failure took (a protocol error or an error result). */
async function refusalOf(call: Promise<unknown>): Promise<string> {
  try {
    const result = (await call) as { isError?: boolean; content?: Array<{ text?: string }> };
    if (result.isError === true) return `result: ${result.content?.[0]?.text ?? ''}`;
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
  throw new Error('the call was not refused');
}

function inspector(cwd: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runProcess(process.execPath, [INSPECTOR_CLI, ...args], { cwd, label: `inspector ${args.join(' ')}` });
}

for (const { kind, skip } of await backendsToTest()) {
  describe.skipIf(skip !== undefined)(`endpoints and tool policy on ${kind}${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
    let database: TestDatabase;
    let gateway: TestGateway;
    let dir: string;
    let now = 1_000_000;
    let support: { user: RegistryUser; token: string };
    let intern: { user: RegistryUser; token: string };
    let supportUrl: URL;
    const clients: Array<{ close(): Promise<void> }> = [];

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      dir = mkdtempSync(join(tmpdir(), 'sb-endpoints-'));
      mkdirSync(join(dir, 'docs'));
      writeFileSync(join(dir, 'docs', 'refunds.md'), 'Refunds take 5 days.\n');
      // The Inspector CLI needs a package.json in the parent of its working folder.
      writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
      mkdirSync(join(dir, 'work'));
      gateway = await startTestGateway({
        db: database.db,
        servers: {
          memory: { command: process.execPath, args: [pkg('server-memory')], env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } },
          files: { command: process.execPath, args: [pkg('server-filesystem'), join(dir, 'docs')] },
          sink: { command: process.execPath, args: [KITCHEN_SINK] },
        },
        access: { now: () => now },
      });
      support = await gateway.addUser('sam');
      intern = await gateway.addUser('ian');
      const group = await gateway.api('/api/groups', { body: { name: 'support', members: ['sam'] } });
      expect(group.status, await group.clone().text()).toBe(201);
      const endpoint = await gateway.api('/api/endpoints/support', { method: 'PUT', body: SUPPORT_ENDPOINT });
      expect(endpoint.status, await endpoint.clone().text()).toBe(201);
      supportUrl = new URL(`${gateway.url}/mcp/e/support`);
    }, 60_000);

    afterAll(async () => {
      await Promise.all(clients.map((client) => client.close().catch(() => {})));
      await gateway?.close();
      await database?.drop();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    // Whatever an earlier test took, every bucket is full again two minutes later (the injected clock).
    beforeEach(() => {
      now += 120_000;
    });

    /** Adds a rule or limit (`/api/rules`, `/api/limits`) for one test; the returned function removes it. */
    const adding = async (path: '/api/rules' | '/api/limits', body: unknown): Promise<() => Promise<void>> => {
      const response = await gateway.api(path, { body });
      expect(response.status, await response.clone().text()).toBe(201);
      const { rule, limit } = (await response.json()) as { rule?: { id: string }; limit?: { id: string } };
      const id = rule?.id ?? limit?.id ?? '';
      return async () => {
        expect((await gateway.api(`${path}/${id}`, { method: 'DELETE' })).status).toBe(204);
      };
    };
    /** Puts an endpoint for one test; the returned function removes it. */
    const putEndpoint = async (name: string, body: unknown): Promise<() => Promise<void>> => {
      const put = await gateway.api(`/api/endpoints/${name}`, { method: 'PUT', body });
      expect(put.status, await put.clone().text()).toBe(201);
      return async () => {
        expect((await gateway.api(`/api/endpoints/${name}`, { method: 'DELETE' })).status).toBe(204);
      };
    };

    const track = <T extends { close(): Promise<void> }>(client: T): T => {
      clients.push(client);
      return client;
    };

    test('the support user lists exactly the 6 chosen tools, with the rename and the description override (SDK v1, SDK v2 in both modes, Inspector CLI, REST)', async () => {
      for (const client of [track(await connectV1(supportUrl, support.token)), track(await connectV2(supportUrl, support.token, 'legacy')), track(await connectV2(supportUrl, support.token, 'auto'))]) {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name).sort()).toEqual(SUPPORT_TOOLS);
        expect(tools.find((tool) => tool.name === 'search_nodes')?.description).toBe('Search the support knowledge base.');
      }
      const listed = await inspector(join(dir, 'work'), ['--cli', supportUrl.toString(), '--transport', 'http', '--header', `Authorization: Bearer ${support.token}`, '--method', 'tools/list']);
      expect(listed.code, listed.stderr).toBe(0);
      expect((JSON.parse(listed.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name).sort()).toEqual(SUPPORT_TOOLS);
      const rest = (await (await gateway.api('/api/tools?endpoint=support', { token: support.token })).json()) as { tools: Array<{ name: string }> };
      expect(rest.tools.map((tool) => tool.name).sort()).toEqual(SUPPORT_TOOLS);
      const endpoints = (await (await gateway.api('/api/endpoints', { token: support.token })).json()) as { endpoints: Array<{ name: string; url: string; snippets: { cursor: { mcpServers: Record<string, { url: string }> } } }> };
      expect(endpoints.endpoints.map((endpoint) => endpoint.name)).toEqual(['support']);
      expect(endpoints.endpoints[0]?.snippets.cursor.mcpServers['switchboard-support']?.url).toBe(endpoints.endpoints[0]?.url);
      const detail = (await (await gateway.api('/api/endpoints/support', { token: support.token })).json()) as { tools: Array<{ name: string; originalName: string }> };
      expect(detail.tools.find((tool) => tool.name === 'browse_docs')?.originalName).toBe('list_directory');
      expect((await gateway.api('/api/endpoints/support', { token: intern.token })).status).toBe(404);
      // Rules and groups are the admins' (403 for others); a bad definition names its field.
      expect((await gateway.api('/api/rules', { token: support.token })).status).toBe(403);
      const bad = await gateway.api('/api/endpoints/broken', { method: 'PUT', body: { annotations: { readOnly: true } } });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(await bad.json())).toContain('annotations');
      // Someone outside the group does not find the endpoint at all.
      expect((await fetch(supportUrl, { method: 'POST', headers: { authorization: `Bearer ${intern.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' })).status).toBe(404);
    });

    test('the rename and the override route to the right upstream tool', async () => {
      const client = track(await connectV2(supportUrl, support.token, 'legacy'));
      const browsed = (await client.callTool({ name: 'browse_docs', arguments: { path: join(dir, 'docs') } })) as { isError?: boolean; content: Array<{ text: string }> };
      expect(browsed.isError, browsed.content[0]?.text).not.toBe(true);
      expect(browsed.content[0]?.text).toContain('refunds.md');
      const searched = (await client.callTool({ name: 'search_nodes', arguments: { query: 'refund' } })) as { isError?: boolean };
      expect(searched.isError).not.toBe(true);
    });

    test('the support user cannot call any other tool by any route, and every refusal reads the same', async () => {
      const v2 = track(await connectV2(supportUrl, support.token, 'legacy'));
      const v1 = track(await connectV1(supportUrl, support.token));
      // An unlisted tool of a chosen server, a tool of a chosen server filtered out as not read-only,
      // the renamed tool's old name, and a name that exists nowhere.
      const names = ['create_entities', 'delete_entities', 'list_directory', 'no_such_tool_anywhere'];
      const texts: string[] = [];
      for (const name of names) {
        for (const [label, client] of [['v2', v2], ['v1', v1]] as const) texts.push(`${label}: ${(await refusalOf(client.callTool({ name, arguments: {} }))).replace(name, 'NAME')}`);
        const rest = await gateway.api(`/api/tools/${name}/call?endpoint=support`, { token: support.token, body: { arguments: {} } });
        expect(rest.status).toBe(404);
        texts.push(`rest: ${((await rest.json()) as { error: { message: string } }).error.message.replace(name, 'NAME')}`);
      }
      // Per route, one text for all four names (each SDK words a protocol error its own way).
      for (const route of ['v1:', 'v2:', 'rest:']) expect(new Set(texts.filter((text) => text.startsWith(route))), route).toHaveProperty('size', 1);
      expect(texts[0]).toContain('is not available');
      // With /mcp turned off, the everything endpoint is no way around it either (MCP and REST).
      expect((await gateway.api('/api/settings/everything', { method: 'PUT', body: { on: false } })).status).toBe(200);
      try {
        await expect(connectV2(gateway.mcpUrl, support.token, 'legacy')).rejects.toThrow();
        const rest = await gateway.api('/api/tools/create_entities/call', { token: support.token, body: { arguments: {} } });
        expect(rest.status).toBe(403);
        // Admins keep /mcp.
        track(await connectV2(gateway.mcpUrl, gateway.adminToken, 'legacy'));
      } finally {
        await gateway.api('/api/settings/everything', { method: 'PUT', body: { on: true } });
      }
      const audit = await gateway.registry.audit.list({ user: support.user, limit: 100 });
      expect(audit.find((entry) => entry.decision === 'deny' && entry.tool === 'delete_entities')).toMatchObject({ endpoint: 'support', ok: false, errorCode: 'TOOL_NOT_FOUND' });
    });

    test('the 6th call in a minute gets the rate limit error the model can read (MCP) and a 429 with Retry-After (REST)', async () => {
      const removeLimit = await adding('/api/limits', { scope: { kind: 'endpoint', name: 'support' }, perMinute: 5, perCaller: true });
      try {
        const client = track(await connectV2(supportUrl, support.token, 'legacy'));
        for (let i = 0; i < 5; i++) {
          const result = (await client.callTool({ name: 'echo', arguments: { message: `call ${i}` } })) as { isError?: boolean };
          expect(result.isError, `call ${i + 1}`).not.toBe(true);
        }
        const refused = (await client.callTool({ name: 'echo', arguments: { message: 'one too many' } })) as { isError?: boolean; content: Array<{ text: string }> };
        expect(refused.isError).toBe(true);
        expect(refused.content[0]?.text).toMatch(/rate limit reached for "echo": 5 calls per minute per caller for endpoint support; retry in 12 s/);
        const rest = await gateway.api('/api/tools/echo/call?endpoint=support', { token: support.token, body: { arguments: { message: 'rest' } } });
        expect(rest.status).toBe(429);
        expect(rest.headers.get('retry-after')).toBe('12');
        // 12 s later (on the injected clock) one token is back.
        now += 12_000;
        expect(((await client.callTool({ name: 'echo', arguments: { message: 'later' } })) as { isError?: boolean }).isError).not.toBe(true);
        expect(((await client.callTool({ name: 'echo', arguments: { message: 'again' } })) as { isError?: boolean }).isError).toBe(true);
        const audit = await gateway.registry.audit.list({ user: support.user, limit: 100 });
        expect(audit.find((entry) => entry.decision === 'rate-limited')?.rule).toMatch(/5 calls per minute/);
      } finally {
        await removeLimit();
      }
    });

    test('a denied destructive tool is not listed on /mcp and cannot be called there (MCP, REST), and the rule is in the audit log', async () => {
      const removeRule = await adding('/api/rules', { scope: { kind: 'user', name: 'ian' }, effect: 'deny', annotations: { destructiveHint: true }, description: 'interns never destroy' });
      try {
        const client = track(await connectV2(gateway.mcpUrl, intern.token, 'legacy'));
        const names = (await client.listTools()).tools.map((tool) => tool.name);
        expect(names).toEqual(expect.arrayContaining(['read_graph', 'create_entities', 'echo']));
        for (const destructive of ['delete_entities', 'delete_observations', 'delete_relations', 'write_file', 'move_file']) expect(names).not.toContain(destructive);
        const denied = await refusalOf(client.callTool({ name: 'delete_entities', arguments: { entityNames: ['x'] } }));
        const unknown = await refusalOf(client.callTool({ name: 'no_such_tool_anywhere', arguments: {} }));
        expect(denied.replace('delete_entities', 'NAME')).toBe(unknown.replace('no_such_tool_anywhere', 'NAME'));
        const rest = await gateway.api('/api/tools/delete_entities/call', { token: intern.token, body: { arguments: { entityNames: ['x'] } } });
        expect(rest.status).toBe(404);
        const audit = await gateway.registry.audit.list({ user: intern.user, limit: 100 });
        expect(audit.find((entry) => entry.decision === 'deny' && entry.tool === 'delete_entities')?.rule).toMatch(/deny destructiveHint=true for user ian/);
        // Others are not bound by the intern's rule.
        const admin = track(await connectV2(gateway.mcpUrl, gateway.adminToken, 'legacy'));
        expect((await admin.listTools()).tools.map((tool) => tool.name)).toContain('delete_entities');
      } finally {
        await removeRule();
      }
    });

    test('rule changes reach connected clients as list_changed, and the new list holds at once', async () => {
      const client: V2Client = track(await connectV2(gateway.mcpUrl, intern.token, 'legacy'));
      const onSupport: V2Client = track(await connectV2(supportUrl, support.token, 'legacy'));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('read_graph');
      const changed = (target: V2Client): Promise<void> =>
        new Promise((done, fail) => {
          const timer = setTimeout(() => fail(new Error('no list_changed within 10 s')), WAIT_MS);
          target.setNotificationHandler('notifications/tools/list_changed', () => {
            clearTimeout(timer);
            done();
          });
        });
      const heard = changed(client);
      const heardOnSupport = changed(onSupport);
      const response = await gateway.api('/api/rules', { body: { scope: { kind: 'group', name: 'support' }, effect: 'deny', tools: ['read_*'] } });
      expect(response.status).toBe(201);
      const ruleId = ((await response.json()) as { rule: { id: string } }).rule.id;
      try {
        await Promise.all([heard, heardOnSupport]);
        expect((await onSupport.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['browse_docs', 'echo', 'open_nodes', 'search_nodes']);
        const denied = await refusalOf(onSupport.callTool({ name: 'read_graph', arguments: {} }));
        expect(denied).toContain('is not available');
      } finally {
        const restored = changed(onSupport);
        expect((await gateway.api(`/api/rules/${ruleId}`, { method: 'DELETE' })).status).toBe(204);
        await restored;
      }
      expect((await onSupport.listTools()).tools.map((tool) => tool.name).sort()).toEqual(SUPPORT_TOOLS);
    });

    test('on an endpoint that asks for approval, a write waits for a person: approved it runs, denied or timed out it does not; reads never wait', async () => {
      const removeEndpoint = await putEndpoint('writers', { servers: ['memory'], access: { users: ['sam'] }, approval: { writes: true, timeoutSeconds: 0.5 } });
      try {
        const client = track(await connectV2(new URL(`${gateway.url}/mcp/e/writers`), support.token, 'legacy'));
        const pending = async (): Promise<Array<{ id: string; tool: string; user: string; arguments: Record<string, unknown> }>> =>
          ((await (await gateway.api('/api/approvals')).json()) as { approvals: Array<{ id: string; tool: string; user: string; arguments: Record<string, unknown> }> }).approvals;
        const decide = async (approve: boolean): Promise<void> => {
          await waitFor(async () => (await pending()).length === 1, WAIT_MS, 'the call to wait for approval');
          const [waiting] = await pending();
          expect(waiting).toMatchObject({ tool: 'create_entities', user: 'sam' });
          expect((await gateway.api(`/api/approvals/${waiting?.id ?? ''}`, { body: { approve } })).status).toBe(200);
        };
        const entities = (name: string) => ({ entities: [{ name, entityType: 'customer', observations: ['asked about refunds'] }] });
        const approved = client.callTool({ name: 'create_entities', arguments: entities('approved-customer') });
        await decide(true);
        expect(((await approved) as { isError?: boolean }).isError).not.toBe(true);
        const denied = client.callTool({ name: 'create_entities', arguments: entities('denied-customer') });
        await decide(false);
        expect(await refusalOf(denied)).toMatch(/denied by a person reviewing it/);
        expect(await refusalOf(client.callTool({ name: 'create_entities', arguments: entities('late-customer') }))).toMatch(/nobody approved the call of "create_entities" within 500 ms/);
        const graph = (await client.callTool({ name: 'read_graph', arguments: {} })) as { content: Array<{ text: string }> };
        expect(graph.content[0]?.text).toContain('approved-customer');
        expect(graph.content[0]?.text).not.toContain('denied-customer');
        expect(graph.content[0]?.text).not.toContain('late-customer');
        const decisions = (await gateway.registry.audit.list({ user: support.user, limit: 200 })).filter((entry) => entry.endpoint === 'writers').map((entry) => `${entry.decision ?? 'call'}:${entry.rule ?? ''}`);
        expect(decisions).toEqual(expect.arrayContaining([expect.stringMatching(/^approved:.*by admin/), expect.stringMatching(/^rejected:.*denied by admin/), expect.stringMatching(/^rejected:.*timed out/)]));
      } finally {
        await removeEndpoint();
      }
    });

    test('an endpoint may ask the caller\'s own client instead (elicitation): accepted the write runs, declined it does not (SDK v1 and v2)', async () => {
      const removeEndpoint = await putEndpoint('asking', { servers: ['memory'], access: { users: ['sam'] }, approval: { writes: true, ask: 'client', timeoutSeconds: 5 } });
      try {
        const url = new URL(`${gateway.url}/mcp/e/asking`);
        const answers = ['accept', 'decline', 'accept', 'decline'];
        const asked: string[] = [];
        const answer = (message: string): { action: string } => {
          asked.push(message);
          return { action: answers.shift() ?? 'decline' };
        };
        const v1 = track(await connectV1(url, support.token, { elicitation: {} }));
        v1.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params.message) as { action: 'accept' | 'decline' });
        const v2: V2Client = track(await connectV2(url, support.token, 'legacy', { capabilities: { elicitation: {} } }));
        v2.setRequestHandler('elicitation/create', (request) => answer(String(request.params.message)) as { action: 'accept' | 'decline' });
        const create = (name: string) => ({ name: 'create_entities', arguments: { entities: [{ name, entityType: 'customer', observations: [] }] } });
        for (const [label, client] of [['v1', v1], ['v2', v2]] as const) {
          expect(((await client.callTool(create(`${label}-accepted`))) as { isError?: boolean }).isError, label).not.toBe(true);
          expect(await refusalOf(client.callTool(create(`${label}-declined`)))).toMatch(/was not approved by the user/);
        }
        expect(asked).toHaveLength(4);
        expect(asked[0]).toMatch(/^Allow "create_entities" \(server memory\) to run with \{"entities":\[\{"name":"v1-accepted"/);
        // Reads do not ask.
        await v2.callTool({ name: 'read_graph', arguments: {} });
        expect(asked).toHaveLength(4);
        const graph = JSON.stringify(await v2.callTool({ name: 'read_graph', arguments: {} }));
        expect(graph).toContain('v1-accepted');
        expect(graph).toContain('v2-accepted');
        expect(graph).not.toContain('declined');
      } finally {
        await removeEndpoint();
      }
    });
  });
}

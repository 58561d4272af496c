/**
 * Several users on one gateway, over real sockets with real servers: each user sees (over MCP and the
 * API) only their own servers and the shared ones, cannot use or hijack another's session, edits
 * their servers through the API under the tenant policy (and connected MCP clients hear about it),
 * is held to their concurrent-call limit (429), and reads only their own metrics, stats and events.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { RegistryUser } from '../../../src/registry/registry-types.js';
import { openEventStream } from '../../helpers/event-stream.js';
import { FAULT_SERVER, KITCHEN_SINK } from '../../helpers/fixtures.js';
import { connectV1, connectV2, startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { descendantsOf, waitFor } from '../../helpers/processes.js';

const WAIT_MS = 10_000;
const sinkEntry = (name: string, tool: string, env: Record<string, string> = {}) => ({ command: process.execPath, args: [KITCHEN_SINK, '--name', name, '--tools', tool], env });

let gateway: TestGateway;
let alice: { user: RegistryUser; token: string };
let bob: { user: RegistryUser; token: string };
let carol: { user: RegistryUser; token: string };

beforeAll(async () => {
  gateway = await startTestGateway({ servers: { shared_sink: { command: process.execPath, args: [KITCHEN_SINK, '--name', 'shared', '--tools', 'shared_only'], include: ['shared_only'] } }, pool: { callQueueTimeoutMs: 300 } });
  alice = await gateway.addUser('alice');
  bob = await gateway.addUser('bob');
  carol = await gateway.addUser('carol');
  // Tenants may not start processes by default; these two are allowed to (per-user exceptions).
  await gateway.registry.users.setPolicy(alice.user, { allowStdio: true, maxConcurrentCalls: 1 });
  await gateway.registry.users.setPolicy(bob.user, { allowStdio: true });
  for (const [who, tool] of [[alice, 'alice_only'], [bob, 'bob_only']] as const) {
    const response = await gateway.api('/api/servers', { token: who.token, body: { name: `${who.user.name}-sink`, entry: sinkEntry(who.user.name, tool, { SECRET_TOKEN: `secret-of-${who.user.name}-0123456789` }) } });
    expect(response.status).toBe(201);
  }
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await waitFor(() => descendantsOf(process.pid).every((child) => !child.cmdline.includes(KITCHEN_SINK) && !child.cmdline.includes(FAULT_SERVER)), 5_000, 'the servers to exit');
});

describe('each user sees their own servers and the shared ones', () => {
  test('over MCP', async () => {
    for (const [who, own, other] of [[alice, 'alice_only', 'bob_only'], [bob, 'bob_only', 'alice_only']] as const) {
      const client = await connectV2(gateway.mcpUrl, who.token, 'legacy');
      try {
        const names = (await client.listTools()).tools.map((tool) => tool.name);
        expect(names).toContain(own);
        expect(names).toContain('shared_only');
        expect(names).not.toContain(other);
        expect(await client.callTool({ name: own, arguments: { query: 'q' } })).toMatchObject({ content: [{ type: 'text', text: `${who.user.name}/${own}: q` }] });
        await expect(client.callTool({ name: other, arguments: {} })).rejects.toThrow(/no tool named/);
      } finally {
        await client.close();
      }
    }
  });

  test('over the API, with secrets masked and shared servers read-only', async () => {
    const response = await gateway.api('/api/servers', { token: alice.token });
    const { servers } = (await response.json()) as { servers: Array<Record<string, unknown>> };
    expect(servers.map((server) => server.name)).toEqual(['alice-sink', 'shared_sink']);
    const own = servers[0];
    expect(own).toMatchObject({ shared: false, editable: true, enabled: true, kind: 'stdio', state: 'ready', transport: 'stdio', restarts: 0 });
    expect(own?.entry).toMatchObject({ command: process.execPath, env: { SECRET_TOKEN: '••••6789' } });
    expect(JSON.stringify(servers)).not.toContain('secret-of-alice');
    expect(own?.toolCount).toBeGreaterThan(5);
    expect(own?.stats).toMatchObject({ calls: expect.any(Number), errorRate: expect.any(Number), latency: { p50: expect.any(Number), p95: expect.any(Number), p99: expect.any(Number) }, timeline: expect.any(Array) });
    // A shared server shows a tenant its name and state, not how it is reached.
    expect(servers[1]).toMatchObject({ name: 'shared_sink', shared: true, editable: false, kind: 'stdio', entry: {}, state: 'ready' });
    // The administrator sees how the shared server is reached.
    const adminView = (await (await gateway.api('/api/servers')).json()) as { servers: Array<{ name: string; entry: Record<string, unknown> }> };
    expect(adminView.servers.find((server) => server.name === 'shared_sink')?.entry).toMatchObject({ command: process.execPath });
    expect(adminView.servers.map((server) => server.name)).not.toContain('alice-sink');
  });

  test('another user\'s server cannot be changed or removed; a shared one is read-only', async () => {
    expect((await gateway.api('/api/servers/bob-sink', { token: alice.token, method: 'PATCH', body: { enabled: false } })).status).toBe(404);
    expect((await gateway.api('/api/servers/bob-sink', { token: alice.token, method: 'DELETE' })).status).toBe(404);
    const shared = await gateway.api('/api/servers/shared_sink', { token: alice.token, method: 'DELETE' });
    expect(shared.status).toBe(403);
    expect(await shared.json()).toMatchObject({ error: { code: 'FORBIDDEN', hint: 'change it in the config file and restart the gateway' } });
  });
});

describe('sessions are bound to their user', () => {
  test('another user\'s token on a session is 403; an unknown session is 404', async () => {
    const transport = new StreamableHTTPClientTransport(gateway.mcpUrl, { requestInit: { headers: { authorization: `Bearer ${alice.token}` } } });
    const client = await connectV2(gateway.mcpUrl, alice.token, 'legacy');
    try {
      const sessionId = (client.transport as StreamableHTTPClientTransport | undefined)?.sessionId;
      // A sealed id (issue 20): any replica of the cluster can resume it.
      expect(sessionId).toMatch(/^s1\.[A-Za-z0-9_-]{100,}$/);
      const body = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId ?? '', 'mcp-protocol-version': '2025-11-25' };
      const hijack = await gateway.api('/mcp', { token: bob.token, method: 'POST', body, headers });
      expect(hijack.status).toBe(403);
      expect(await hijack.json()).toMatchObject({ error: { message: 'this session belongs to another user', data: { code: 'FORBIDDEN' } } });
      const unknown = await gateway.api('/mcp', { token: alice.token, method: 'POST', body, headers: { ...headers, 'mcp-session-id': '00000000-0000-0000-0000-000000000000' } });
      expect(unknown.status).toBe(404);
      // The session still works for its owner.
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await client.close();
      await transport.close();
    }
  });
});

describe('registry edits through the API', () => {
  test('a new server reaches a connected client as list_changed, and its removal too', async () => {
    const client = await connectV1(gateway.mcpUrl, bob.token);
    try {
      let changes = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changes++;
      });
      const added = await gateway.api('/api/servers', { token: bob.token, body: { name: 'bob-faults', entry: { command: process.execPath, args: [FAULT_SERVER, '--mode', 'ok'], include: ['slow'] } } });
      expect(added.status).toBe(201);
      expect(await added.json()).toMatchObject({ server: { name: 'bob-faults', state: 'ready', toolCount: 1 } });
      await waitFor(() => changes >= 1, WAIT_MS, 'list_changed after adding a server');
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('slow');
      const disabled = await gateway.api('/api/servers/bob-faults', { token: bob.token, method: 'PATCH', body: { enabled: false } });
      expect(await disabled.json()).toMatchObject({ server: { name: 'bob-faults', enabled: false, state: 'closed', toolCount: 0 } });
      await waitFor(() => changes >= 2, WAIT_MS, 'list_changed after disabling it');
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('slow');
      expect((await gateway.api('/api/servers/bob-faults', { token: bob.token, method: 'DELETE' })).status).toBe(204);
      expect((await gateway.api('/api/servers/bob-faults', { token: bob.token, method: 'DELETE' })).status).toBe(404);
    } finally {
      await client.close();
    }
  }, 30_000);

  test('the tenant policy refuses with 403 and names the rule; bad entries are 400 with the config messages; taken names 409', async () => {
    const refused = await gateway.api('/api/servers', { token: carol.token, body: { name: 'mine', entry: { command: 'bash', args: ['-c', 'id'] } } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'POLICY_VIOLATION', rules: ['stdio'] } });
    const invalid = await gateway.api('/api/servers', { token: carol.token, body: { name: 'broken', entry: { url: 'https://example.com/mcp', timeout: 'soon' } } });
    expect(invalid.status).toBe(400);
    const body = (await invalid.json()) as { error: { code: string; issues: Array<{ path: string; message: string }> } };
    expect(body.error.code).toBe('CONFIG_INVALID');
    expect(body.error.issues[0]?.path).toBe('servers.broken.timeout');
    expect((await gateway.api('/api/servers', { token: alice.token, body: { name: 'alice-sink', entry: sinkEntry('again', 'again') } })).status).toBe(409);
    expect((await gateway.api('/api/servers', { token: alice.token, body: { name: 'shared_sink', entry: { url: 'https://example.com/mcp' } } })).status).toBe(409);
    expect((await gateway.api('/api/servers', { token: alice.token, body: { name: 'x', entry: 'https://example.com' } })).status).toBe(400);
    expect((await gateway.api('/api/servers', { token: alice.token, body: '{not json' })).status).toBe(400);
  });
});

describe('tools over the API', () => {
  test('calls return the normalized result; unknown tools are 404, bad arguments 400, tool errors 200', async () => {
    const ok = await gateway.api('/api/tools/echo/call', { token: alice.token, body: { arguments: { message: 'hi' } } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ result: { isError: false, content: [{ type: 'text', text: 'hi' }] }, durationMs: expect.any(Number) });
    const failed = await gateway.api('/api/tools/fail/call', { token: alice.token, body: {} });
    expect(failed.status).toBe(200);
    expect(await failed.json()).toMatchObject({ result: { isError: true } });
    const unknown = await gateway.api('/api/tools/bob_only/call', { token: alice.token, body: {} });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'TOOL_NOT_FOUND' } });
    const bad = await gateway.api('/api/tools/add/call', { token: alice.token, body: { arguments: { a: 'one' } } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'INVALID_ARGUMENT', server: 'alice-sink' } });
    const listed = (await (await gateway.api('/api/tools', { token: alice.token })).json()) as { tools: Array<{ name: string; server: string; originalName: string }>; version: number };
    expect(listed.tools.find((tool) => tool.name === 'alice_only')).toMatchObject({ server: 'alice-sink', originalName: 'alice_only' });
    expect(listed.version).toEqual(expect.any(Number));
  });

  test('with Accept: text/event-stream a call streams its progress, then its result; a refusal after the start is an error event', async () => {
    const sse = { accept: 'text/event-stream' };
    const events = async (response: Response): Promise<Array<{ event: string; data: unknown }>> =>
      (await response.text())
        .split('\n\n')
        .filter((block) => block.includes('data:'))
        .map((block) => ({
          event: /^event: ?(.*)$/m.exec(block)?.[1] ?? 'message',
          data: JSON.parse(/^data: ?(.*)$/m.exec(block)?.[1] ?? 'null') as unknown,
        }));
    const streamed = await gateway.api('/api/tools/sleep/call', { token: alice.token, body: { arguments: { ms: 300 } }, headers: sse });
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    const seen = await events(streamed);
    // sleep(300) reports 6 steps of 50 ms; each arrives before the result.
    expect(seen.filter((event) => event.event === 'progress').map((event) => event.data)).toEqual(
      [1, 2, 3, 4, 5, 6].map((step) => ({ progress: step, total: 6, message: `step ${step}` })),
    );
    expect(seen.at(-1)).toMatchObject({ event: 'result', data: { result: { isError: false, content: [{ type: 'text', text: 'slept 300 ms' }] }, durationMs: expect.any(Number) } });
    const bad = await gateway.api('/api/tools/add/call', { token: alice.token, body: { arguments: { a: 'one' } }, headers: sse });
    // The same error JSON as a plain call's, with the status it would have had.
    expect(await events(bad)).toEqual([{ event: 'error', data: { error: expect.objectContaining({ code: 'INVALID_ARGUMENT', server: 'alice-sink' }), status: 400 } }]);
    // Nothing to stream for a tool that does not exist: a plain 404.
    const unknown = await gateway.api('/api/tools/bob_only/call', { token: alice.token, body: {}, headers: sse });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'TOOL_NOT_FOUND' } });
  });

  test('a user over their concurrent-call limit gets 429 while others are served', async () => {
    const slow = gateway.api('/api/tools/sleep/call', { token: alice.token, body: { arguments: { ms: 2_000 } } });
    await waitFor(() => gateway.running.gateway.calls.size > 0, WAIT_MS, 'the slow call to start');
    const refused = await gateway.api('/api/tools/echo/call', { token: alice.token, body: { arguments: { message: 'one more' } } });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: { code: 'LIMIT_EXCEEDED' } });
    // Bob has his own limit.
    expect((await gateway.api('/api/tools/echo/call', { token: bob.token, body: { arguments: { message: 'mine' } } })).status).toBe(200);
    expect((await slow).status).toBe(200);
  });
});

describe('metrics, stats and events are per user', () => {
  test('/metrics: an administrator sees every user; a tenant only their own series', async () => {
    const all = await (await gateway.api('/metrics')).text();
    expect(all).toMatch(/mcp_tool_calls_total\{user="alice",server="alice-sink",tool="echo",outcome="ok"\} \d/);
    expect(all).toMatch(/mcp_tool_calls_total\{user="bob",server="bob-sink",tool="bob_only",outcome="ok"\} \d/);
    expect(all).toContain('switchboard_http_requests_total');
    const own = await (await gateway.api('/metrics', { token: alice.token })).text();
    expect(own).toContain('user="alice"');
    expect(own).not.toContain('user="bob"');
    expect(own).not.toContain('switchboard_http_requests_total');
  });

  test('/api/stats is the user\'s own client.stats()', async () => {
    const stats = (await (await gateway.api('/api/stats', { token: bob.token })).json()) as { since: number; servers: Array<{ server: string; calls: number }> };
    expect(stats.since).toEqual(expect.any(Number));
    expect(stats.servers.map((server) => server.server).sort()).toEqual(['bob-sink', 'shared_sink']);
    expect(stats.servers.find((server) => server.server === 'bob-sink')?.calls).toBeGreaterThan(0);
  });

  test('/api/events streams the user\'s calls and registry changes, and nothing of other users', async () => {
    const stream = await openEventStream(gateway.url, bob.token, WAIT_MS);
    const { seen } = stream;
    try {
      await gateway.api('/api/tools/echo/call', { token: alice.token, body: { arguments: { message: 'not for bob' } } });
      await gateway.api('/api/tools/bob_only/call', { token: bob.token, body: { arguments: { query: 'watched' } } });
      await waitFor(() => seen.some((item) => item.event === 'tool-call-end'), WAIT_MS, 'tool-call-end');
      const start = seen.find((item) => item.event === 'tool-call-start');
      expect(start?.data).toMatchObject({ name: 'bob_only', server: 'bob-sink', time: expect.any(Number) });
      expect(seen.find((item) => item.event === 'tool-call-end')?.data).toMatchObject({ name: 'bob_only', ok: true, durationMs: expect.any(Number) });
      expect(seen.every((item) => item.data.name !== 'echo')).toBe(true);
      expect((await gateway.api('/api/servers', { token: bob.token, body: { name: 'bob-later', entry: sinkEntry('later', 'later'), enabled: false } })).status).toBe(201);
      await waitFor(() => seen.some((item) => item.event === 'servers-changed'), WAIT_MS, 'servers-changed');
      expect(seen.find((item) => item.event === 'servers-changed')?.data).toMatchObject({ kind: 'server', action: 'added', name: 'bob-later' });
    } finally {
      await stream.close();
    }
  });

  test('/api/me says who the token belongs to', async () => {
    expect(await (await gateway.api('/api/me', { token: carol.token })).json()).toEqual({ user: { id: carol.user.id, name: 'carol', admin: false } });
    expect(await (await gateway.api('/api/me')).json()).toMatchObject({ user: { name: 'admin', admin: true } });
  });
});

describe('templates over the API', () => {
  test('GET /api/templates: typed parameters for everyone, the command line for administrators only, fixed env values for nobody; a tenant instantiates one', async () => {
    await gateway.registry.templates.add('sink-tpl', {
      description: 'A kitchen-sink server with tools of your choice.',
      command: process.execPath,
      args: [KITCHEN_SINK, '--name', '{{label}}', '--tools', '{{tools}}'],
      env: { SINK_SECRET: 'admin-only-value-7f3a' },
      parameters: [
        { name: 'label', type: 'string', pattern: '[a-z0-9-]{1,20}', description: 'Shown as the server name.' },
        { name: 'tools', type: 'string', default: 'tpl_tool' },
        { name: 'mode', type: 'enum', values: ['fast', 'safe'], required: false },
        { name: 'token', type: 'string', secret: true, required: false },
      ],
    });
    try {
      const tenantAnswer = await gateway.api('/api/templates', { token: bob.token });
      expect(tenantAnswer.status).toBe(200);
      const tenantText = await tenantAnswer.text();
      const tenantView = (JSON.parse(tenantText) as { templates: Array<{ name: string }> }).templates.find((template) => template.name === 'sink-tpl');
      expect(tenantView).toEqual({
        name: 'sink-tpl',
        description: 'A kitchen-sink server with tools of your choice.',
        parameters: [
          { name: 'label', type: 'string', required: true, pattern: '[a-z0-9-]{1,20}', description: 'Shown as the server name.' },
          { name: 'tools', type: 'string', required: false, default: 'tpl_tool' },
          { name: 'mode', type: 'enum', required: false, values: ['fast', 'safe'] },
          { name: 'token', type: 'string', required: false, secret: true },
        ],
      });
      const adminText = await (await gateway.api('/api/templates')).text();
      const adminView = (JSON.parse(adminText) as { templates: Array<{ name: string; command?: string; args?: string[] }> }).templates.find((template) => template.name === 'sink-tpl');
      expect(adminView).toMatchObject({ command: process.execPath, args: [KITCHEN_SINK, '--name', '{{label}}', '--tools', '{{tools}}'] });
      for (const text of [tenantText, adminText]) expect(text).not.toContain('admin-only-value-7f3a');
      expect((await gateway.api('/api/templates', { token: 'sb_not_a_token' })).status).toBe(401);
      // What the dashboard sends once the form is filled in.
      const added = await gateway.api('/api/servers', { token: bob.token, body: { name: 'bob-tpl', entry: { template: 'sink-tpl', parameters: { label: 'bob-tpl' } } } });
      expect(added.status).toBe(201);
      expect(await added.json()).toMatchObject({ server: { name: 'bob-tpl', state: 'ready', kind: 'template' } });
      const tools = (await (await gateway.api('/api/tools', { token: bob.token })).json()) as { tools: Array<{ name: string; server: string }> };
      expect(tools.tools).toContainEqual(expect.objectContaining({ name: 'tpl_tool', server: 'bob-tpl' }));
      expect((await gateway.api('/api/servers/bob-tpl', { token: bob.token, method: 'DELETE' })).status).toBe(204);
    } finally {
      await gateway.registry.templates.remove('sink-tpl');
    }
  });
});

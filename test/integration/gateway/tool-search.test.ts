/**
 * Tool search on the gateway, per user, over real sockets with real servers (server-filesystem and the
 * kitchen sink): a user with tool search on sees search_tools and call_tool (plus pinned tools) on
 * /mcp instead of every definition; search finds only their own tools; call_tool runs the real tool,
 * which audit and metrics record by its own name; another user's tool is neither found nor callable;
 * switching the setting sends list_changed to a connected client. A user without it sees everything.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { RegistryUser } from '../../../src/registry/registry-types.js';
import { bin, KITCHEN_SINK } from '../../helpers/fixtures.js';
import { connectV1, startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { waitFor } from '../../helpers/processes.js';

const WAIT_MS = 10_000;
let gateway: TestGateway;
let alice: { user: RegistryUser; token: string };
let bob: { user: RegistryUser; token: string };
let folder: string;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'sb-gw-search-'));
  writeFileSync(join(folder, 'minutes-0412.md'), '# minutes');
  gateway = await startTestGateway();
  alice = await gateway.addUser('alice');
  bob = await gateway.addUser('bob');
  for (const who of [alice, bob]) await gateway.registry.users.setPolicy(who.user, { allowStdio: true });
  const add = async (token: string, name: string, entry: Record<string, unknown>) => {
    const response = await gateway.api('/api/servers', { token, body: { name, entry } });
    expect(response.status, await response.clone().text()).toBe(201);
  };
  await add(alice.token, 'files', { command: bin('mcp-server-filesystem'), args: [folder] });
  await add(alice.token, 'sink', { command: process.execPath, args: [KITCHEN_SINK, '--name', 'alice'] });
  await add(bob.token, 'bobsink', { command: process.execPath, args: [KITCHEN_SINK, '--name', 'bob', '--tools', 'quarterly_payroll_export'] });
  await gateway.registry.users.setToolSearch(alice.user, { mode: 'on', pinned: ['echo'] });
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

function text(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((item) => item.text ?? '').join('\n');
}

async function metric(token: string, sample: string): Promise<number> {
  const response = await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(10_000) });
  const line = (await response.text()).split('\n').find((candidate) => candidate.startsWith(sample));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

test('a user with tool search on: meta-tools and pinned tools listed, search and call_tool reach the real tool, recorded by its name', async () => {
  const client = await connectV1(gateway.mcpUrl, alice.token);
  try {
    const listed = (await client.listTools()).tools.map((tool) => tool.name);
    expect(listed).toEqual(['search_tools', 'call_tool', 'echo']);
    const found = JSON.parse(text(await client.callTool({ name: 'search_tools', arguments: { query: 'list the files in a directory', limit: 3 } }))) as { tools: Array<{ name: string; inputSchema: unknown }> };
    expect(found.tools[0]?.name).toBe('list_directory');
    expect(found.tools[0]?.inputSchema).toMatchObject({ type: 'object', properties: { path: expect.any(Object) } });
    const before = await metric(alice.token, 'mcp_tool_calls_total{user="alice",server="files",tool="list_directory",outcome="ok"}');
    const result = await client.callTool({ name: 'call_tool', arguments: { name: 'list_directory', arguments: { path: folder } } });
    expect(result.isError).not.toBe(true);
    expect(text(result)).toContain('minutes-0412.md');
    await waitFor(async () => (await gateway.registry.audit.list({ user: alice.user })).some((entry) => entry.tool === 'list_directory' && entry.server === 'files' && entry.ok), WAIT_MS, 'the audit entry of the real tool');
    expect((await gateway.registry.audit.list({ user: alice.user })).map((entry) => entry.tool)).not.toContain('call_tool');
    expect(await metric(alice.token, 'mcp_tool_calls_total{user="alice",server="files",tool="list_directory",outcome="ok"}')).toBe(before + 1);
    // A pinned tool is called as itself.
    expect(text(await client.callTool({ name: 'echo', arguments: { message: 'pinned' } }))).toContain('pinned');
  } finally {
    await client.close();
  }
});

test("another user's tools are neither found nor callable through call_tool; bad arguments are readable errors", async () => {
  const client = await connectV1(gateway.mcpUrl, alice.token);
  try {
    const found = text(await client.callTool({ name: 'search_tools', arguments: { query: 'quarterly payroll export' } }));
    expect(found).not.toContain('quarterly_payroll_export');
    const refused = await client.callTool({ name: 'call_tool', arguments: { name: 'quarterly_payroll_export', arguments: {} } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('There is no tool "quarterly_payroll_export". Find the right name with search_tools');
    const bad = await client.callTool({ name: 'search_tools', arguments: { query: '' } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toContain('search_tools was not run: "query" must be a non-empty string');
  } finally {
    await client.close();
  }
});

test('a user without the setting sees every tool; switching it sends list_changed to a connected client', async () => {
  const client = await connectV1(gateway.mcpUrl, bob.token);
  try {
    const all = (await client.listTools()).tools.map((tool) => tool.name);
    expect(all).toContain('quarterly_payroll_export');
    expect(all).not.toContain('search_tools');
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });
    await gateway.registry.users.setToolSearch(bob.user, 'on');
    await waitFor(() => changes >= 1, WAIT_MS, 'list_changed after the setting changed');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['search_tools', 'call_tool']);
    await gateway.registry.users.setToolSearch(bob.user, undefined);
    await waitFor(() => changes >= 2, WAIT_MS, 'list_changed after the setting was removed');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('quarterly_payroll_export');
  } finally {
    await client.close();
  }
});

test('GET /api/tools?q= ranks the user\'s own tools with the same index; a bad limit is a 400; /api/tool-search reads and sets the mode', async () => {
  const response = await gateway.api('/api/tools?q=rename%20a%20file&limit=3', { token: alice.token });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { tools: Array<{ name: string; server: string }>; query: string };
  expect(body.query).toBe('rename a file');
  expect(body.tools.length).toBeLessThanOrEqual(3);
  expect(body.tools[0]).toMatchObject({ name: 'move_file', server: 'files' });
  const other = (await (await gateway.api('/api/tools?q=quarterly%20payroll', { token: alice.token })).json()) as { tools: Array<{ name: string }> };
  expect(other.tools.map((tool) => tool.name)).not.toContain('quarterly_payroll_export');
  const bad = await gateway.api('/api/tools?q=x&limit=0', { token: alice.token });
  expect(bad.status).toBe(400);
  expect(await bad.text()).toContain('limit must be a whole number from 1 to 1000, got \\"0\\"');

  const carol = await gateway.addUser('carol');
  expect(await (await gateway.api('/api/tool-search', { token: carol.token })).json()).toMatchObject({ toolSearch: { mode: 'off' }, active: false });
  const set = await gateway.api('/api/tool-search', { token: carol.token, method: 'PUT', body: { mode: 'on' } });
  expect(set.status).toBe(200);
  expect(await set.json()).toMatchObject({ toolSearch: { mode: 'on' }, active: true });
  expect((await gateway.registry.users.get('carol')).toolSearch).toEqual({ mode: 'on' });
  const wrong = await gateway.api('/api/tool-search', { token: carol.token, method: 'PUT', body: { mode: 'sometimes' } });
  expect(wrong.status).toBe(400);
  expect(await wrong.text()).toContain('users.carol.toolSearch.mode must be one of off, on, auto');
  await gateway.api('/api/tool-search', { token: carol.token, method: 'PUT', body: { mode: 'off' } });
  expect((await gateway.registry.users.get('carol')).toolSearch).toBeUndefined();
});

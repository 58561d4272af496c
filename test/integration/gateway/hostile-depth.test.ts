/**
 * One server's deeply nested answers cost its callers an error, not the gateway: a real `switchboard
 * serve` process in front of a hostile server (deep-server.mjs, raw JSON-RPC) and a healthy one. A tool
 * whose inputSchema nests 5,000 levels is dropped from the list (it overflowed the serialization of the
 * whole list, so every user of the server lost `tools/list`); a result nested 100,000 levels deep is
 * answered with a JSON-RPC error (its serialization threw in a promise reaction nobody caught, and the
 * process exited). The gateway keeps serving, through the SDK v2 client.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { FIXTURES, KITCHEN_SINK } from '../../helpers/fixtures.js';
import { connectV2 } from '../../helpers/gateway.js';
import { startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process.js';

const dir = mkdtempSync(join(tmpdir(), 'sb-hostile-depth-'));
let gateway: GatewayProcess;

beforeAll(async () => {
  writeFileSync(join(dir, 'switchboard.json'), JSON.stringify({ mcpServers: { deep: { command: process.execPath, args: [`${FIXTURES}/deep-server.mjs`] }, sink: { command: process.execPath, args: [KITCHEN_SINK] } } }));
  gateway = await startGatewayProcess({ config: join(dir, 'switchboard.json'), db: join(dir, 'switchboard.db'), cwd: dir });
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a tool nested 5,000 levels is left out of the list; the other tools are listed', async () => {
  const client = await connectV2(new URL(`${gateway.url}/mcp`), gateway.token, 'legacy');
  try {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['fine', 'deep_result', 'echo']));
    expect(names).not.toContain('deep_schema');
  } finally {
    await client.close();
  }
});

test('a result nested 100,000 levels is an error for its caller; the gateway keeps serving', async () => {
  const client = await connectV2(new URL(`${gateway.url}/mcp`), gateway.token, 'legacy');
  try {
    await expect(client.callTool({ name: 'deep_result', arguments: {} })).rejects.toThrow(/nested too deeply to serialize/);
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    expect(JSON.stringify(await client.callTool({ name: 'fine', arguments: { text: 'still here' } }))).toContain('still here');
  } finally {
    await client.close();
  }
});

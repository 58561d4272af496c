/**
 * Eleven real npm servers started at once with default settings, as in the field trial (issue 15):
 * on a 2-core machine each took up to ~10 s when started together and some missed the 10 s deadline.
 * With bounded concurrent starts and deadlines counted from each spawn, all of them come up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MultiServerClient } from '../../src/index.js';
import { ROOT } from '../helpers/fixtures.js';
import { livingProcesses } from '../helpers/processes.js';

const pkg = (name: string) => join(ROOT, 'node_modules/@modelcontextprotocol', name, 'dist/index.js');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sb-many-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('11 npm servers (6 through npx, 5 through node) with default settings all come up, none timed out', async () => {
  const config = {
    mcpServers: {
      everything: { path: '@modelcontextprotocol/server-everything' },
      filesystem: { path: `@modelcontextprotocol/server-filesystem ${dir}` },
      fs2: { path: `@modelcontextprotocol/server-filesystem ${ROOT}` },
      memory: { path: '@modelcontextprotocol/server-memory', env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } },
      thinking: { path: '@modelcontextprotocol/server-sequential-thinking' },
      everything2: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] },
      // Through node: no first-start allowance, only the 10 s default counted from each spawn.
      everything3: { path: pkg('server-everything') },
      fs3: { path: `${pkg('server-filesystem')} ${dir}` },
      memory2: { path: pkg('server-memory'), env: { MEMORY_FILE_PATH: join(dir, 'memory2.jsonl') } },
      thinking2: { path: pkg('server-sequential-thinking') },
      fs4: { path: `${pkg('server-filesystem')} ${ROOT}` },
    },
  };
  const client = await MultiServerClient.connect(config, { retryFailedServers: false });
  let pids: number[] = [];
  try {
    const status = client.status();
    pids = status.flatMap((server) => (server.pid === undefined ? [] : [server.pid]));
    expect(status.map((server) => [server.name, server.state, server.error?.message])).toEqual(Object.keys(config.mcpServers).map((name) => [name, 'ready', undefined]));
    for (const server of status) {
      expect(server.startMs).toBeGreaterThan(0);
      expect(server.queuedMs).toBeGreaterThanOrEqual(0);
    }
    expect(client.listTools().length).toBeGreaterThan(50);
  } finally {
    await client.close();
  }
  const alive = new Set(livingProcesses().map((process) => process.pid));
  expect(pids.filter((pid) => alive.has(pid))).toEqual([]);
}, 180_000);

/**
 * `client.searchTools` against real npm servers (filesystem, memory, everything) and the kitchen-sink
 * fixture: natural-language requests find the right tools, `servers` narrows, and a tool added by
 * `list_changed` is found on the next search while a tool of a server that went away is not.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, onTestFinished, test } from 'vitest';
import { bin, KITCHEN_SINK } from '../helpers/fixtures.js';
import { connectForEachTest } from '../helpers/connect-for-each-test.js';
import { nextEvent } from '../helpers/next-event.js';

const connect = connectForEachTest();

test('natural-language requests find the tools of real servers, best first; servers narrows the search', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'switchboard-search-'));
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  const client = await connect({
    mcpServers: {
      filesystem: { command: bin('mcp-server-filesystem'), args: [folder] },
      memory: { command: bin('mcp-server-memory'), env: { MEMORY_FILE_PATH: join(folder, 'memory.jsonl') } },
      everything: { command: bin('mcp-server-everything'), args: ['stdio'] },
    },
  });
  const top = (query: string, options = {}) => client.searchTools(query, options).map((tool) => `${tool.server}/${tool.originalName}`);
  expect(top('rename report.txt to final.txt')[0]).toBe('filesystem/move_file');
  expect(top('show me the whole knowledge graph')[0]).toBe('memory/read_graph');
  expect(top('what is the sum of 3 and 4')[0]).toBe('everything/get-sum');
  expect(top('list files with their sizes', { limit: 3 })).toContain('filesystem/list_directory_with_sizes');
  expect(top('delete', { servers: ['memory'] }).every((name) => name.startsWith('memory/'))).toBe(true);
  expect(top('delete', { servers: ['memory'] }).length).toBeGreaterThan(1);
  expect(top('search', { limit: 2 })).toHaveLength(2);
  // Results are the catalog's own entries: callable by name.
  const [sum] = client.searchTools('sum of two numbers');
  expect(sum?.name).toBe('get-sum');
  expect((await client.callTool(sum?.name ?? '', { a: 2, b: 3 })).content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('5') });
});

test('the index follows tools-changed: a tool added at run time is found, a server that is gone is not', async () => {
  const client = await connect(
    { mcpServers: { sink: { command: process.execPath, args: [KITCHEN_SINK, '--name', 'sink'] }, other: { command: process.execPath, args: [KITCHEN_SINK, '--name', 'other', '--tools', 'weather_forecast'] } } },
    { listChangedDebounceMs: 20 },
  );
  expect(client.searchTools('weather forecast').map((tool) => tool.server)).toEqual(['other']);
  expect(client.searchTools('greeter')).toEqual([]);
  const added = nextEvent(client, 'tools-changed');
  await client.callTool('sink__add_tool', { name: 'greeter' });
  await added;
  expect(client.searchTools('greeter')[0]).toMatchObject({ server: 'sink', originalName: 'greeter' });
  const removed = nextEvent(client, 'tools-changed');
  await client.reconfigure({ mcpServers: { sink: { command: process.execPath, args: [KITCHEN_SINK, '--name', 'sink'] } } });
  await removed;
  expect(client.searchTools('weather forecast')).toEqual([]);
});

/**
 * The LangChain toolset with tool search, against real server-filesystem and server-memory: `tools`
 * is the meta-tools (and pinned tools) until a search finds more, then the found tools too; the
 * meta-tools answer with ToolMessages, errors included, and call_tool runs the real tool.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolMessage } from '@langchain/core/messages';
import { afterEach, expect, test } from 'vitest';
import { createLangChainToolset } from '../../../src/adapters/langchain.js';
import { connectClient } from '../../helpers/agents.js';
import { bin } from '../../helpers/fixtures.js';

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

test('meta-tools first, found tools added; call_tool runs the real tool; errors are error ToolMessages', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'switchboard-lc-search-'));
  // Pushed first, so it runs last (the cleanups run in reverse): after the servers using it are gone.
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  writeFileSync(join(folder, 'roadmap-2028.md'), '# later');
  const client = await connectClient({ fs: { command: bin('mcp-server-filesystem'), args: [folder] }, memory: { command: bin('mcp-server-memory'), env: { MEMORY_FILE_PATH: join(folder, 'memory.jsonl') } } });
  cleanups.push(() => client.close());
  const toolset = createLangChainToolset(client, { toolSearch: { mode: 'on', pinned: ['read_graph'] } });
  cleanups.push(() => toolset.close());
  expect(toolset.searching).toBe(true);
  expect(toolset.tools.map((tool) => tool.name)).toEqual(['search_tools', 'call_tool', 'read_graph']);

  const search = toolset.toolFor('search_tools');
  const found = (await search.invoke({ id: 's1', name: 'search_tools', args: { query: 'list the files of a directory', limit: 2 }, type: 'tool_call' })) as ToolMessage;
  expect(ToolMessage.isInstance(found)).toBe(true);
  const names = (JSON.parse(found.text) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
  expect(names[0]).toBe('list_directory');
  expect(toolset.tools.map((tool) => tool.name)).toEqual(['search_tools', 'call_tool', 'read_graph', ...names]);

  const call = (await toolset.toolFor('call_tool').invoke({ id: 'c1', name: 'call_tool', args: { name: 'list_directory', arguments: { path: folder } }, type: 'tool_call' })) as ToolMessage;
  expect(call.status).toBe('success');
  expect(call.text).toContain('roadmap-2028.md');
  const unknown = (await toolset.toolFor('call_tool').invoke({ id: 'c2', name: 'call_tool', args: { name: 'no_such_tool' }, type: 'tool_call' })) as ToolMessage;
  expect(unknown.status).toBe('error');
  expect(unknown.text).toContain('There is no tool "no_such_tool". Find the right name with search_tools');
});

test('toolSearch unset: every tool, as before', async () => {
  const client = await connectClient({ fs: { command: bin('mcp-server-filesystem'), args: [tmpdir()] } });
  cleanups.push(() => client.close());
  const toolset = createLangChainToolset(client);
  cleanups.push(() => toolset.close());
  expect(toolset.searching).toBe(false);
  expect(toolset.tools.map((tool) => tool.name)).toEqual(client.listTools().map((tool) => tool.name));
});

import { expect, test } from 'vitest';
import { ErrorCode } from '../../errors.js';
import type { ToolResult } from '../../result/tool-result.js';
import type { CatalogTool } from '../multi-server-client.js';
import { ToolDiscovery, metaToolDefinitions } from './discovery-tools.js';
import { resolveToolSearch } from './tool-search-mode.js';

const tool = (server: string, name: string, description: string): CatalogTool => ({ name: `${server}__${name}`, server, originalName: name, description: `[${server}] ${description}`, inputSchema: { type: 'object', properties: { path: { type: 'string' } } } });
const catalog = [tool('fs', 'read_file', 'Read a file from disk.'), tool('fs', 'delete_file', 'Delete a file.'), tool('vault', 'read_secret', 'Read a secret from the vault.')];

function client(calls: Array<{ name: string; args: Record<string, unknown> }>) {
  return {
    catalogVersion: 1,
    listTools: () => catalog,
    getTool: (name: string) => catalog.find((entry) => entry.name === name),
    callTool: async (name: string, args: Record<string, unknown> = {}): Promise<ToolResult> => {
      calls.push({ name, args });
      return { isError: false, content: [{ type: 'text', text: `ran ${name}` }] };
    },
  };
}

test('search_tools returns names, descriptions and schemas of the best matches, and remembers them as found', () => {
  const discovery = new ToolDiscovery(client([]), resolveToolSearch('on'));
  const { tools, result } = discovery.search({ query: 'read a file', limit: 1 });
  expect(tools).toEqual([{ name: 'fs__read_file', description: '[fs] Read a file from disk.', inputSchema: catalog[0]?.inputSchema }]);
  expect(JSON.parse(result.content[0]?.type === 'text' ? result.content[0].text : '')).toEqual({ tools });
  expect(discovery.found().map((entry) => entry.name)).toEqual(['fs__read_file']);
  expect(discovery.search({ query: 'zebra' }).result.content[0]).toEqual({ type: 'text', text: 'No tool matches "zebra". Try other words.' });
});

test('call_tool runs the named tool with its arguments through the client', async () => {
  const calls: Array<{ name: string; args: Record<string, unknown> }> = [];
  const discovery = new ToolDiscovery(client(calls), resolveToolSearch('on'));
  expect((await discovery.call({ name: 'fs__delete_file', arguments: { path: 'a' } })).content[0]).toEqual({ type: 'text', text: 'ran fs__delete_file' });
  expect(calls).toEqual([{ name: 'fs__delete_file', args: { path: 'a' } }]);
});

test('allow limits what search finds and what call_tool runs', async () => {
  const calls: Array<{ name: string; args: Record<string, unknown> }> = [];
  const discovery = new ToolDiscovery(client(calls), resolveToolSearch('on'), (entry) => entry.server !== 'vault');
  expect(discovery.search({ query: 'read secret vault' }).tools.map((entry) => entry.name)).not.toContain('vault__read_secret');
  await expect(discovery.call({ name: 'vault__read_secret' })).rejects.toMatchObject({ code: ErrorCode.ToolNotFound, message: 'There is no tool "vault__read_secret". Find the right name with search_tools, then call it with call_tool.' });
  expect(calls).toEqual([]);
  expect(metaToolDefinitions(discovery.visibleTools().length)[0].description).toContain('among 2 available tools');
});

test('bad arguments are InvalidArgument errors a model can act on', async () => {
  const discovery = new ToolDiscovery(client([]), resolveToolSearch('on'));
  expect(() => discovery.search({ query: '  ' })).toThrow('search_tools was not run: "query" must be a non-empty string saying what you want to do.');
  expect(() => discovery.search({ query: 'x', limit: 50 })).toThrow('"limit" must be a whole number from 1 to 20');
  expect(() => discovery.search('read')).toThrow('the arguments must be a JSON object');
  await expect(discovery.call({ name: 'fs__read_file', arguments: [] })).rejects.toThrow('call_tool was not run: "arguments" must be an object.');
  await expect(discovery.call({ name: 'call_tool' })).rejects.toMatchObject({ code: ErrorCode.ToolNotFound });
});

import { expect, test } from 'vitest';
import { ErrorCode } from '../../errors.js';
import type { CatalogTool } from '../multi-server-client.js';
import { estimateDefinitionTokens, pinnedTools, resolveToolSearch, toolSearchActive } from './tool-search-mode.js';

const tool = (name: string, description = 'x'): CatalogTool => ({ name, server: 's', originalName: name, description, inputSchema: { type: 'object' } });
const tools = (count: number, description = 'x'): CatalogTool[] => Array.from({ length: count }, (_, index) => tool(`t${index}`, description));

test('a mode alone, or settings, completed with the defaults', () => {
  expect(resolveToolSearch('on')).toEqual({ mode: 'on', maxTools: 40, maxTokens: 8000, pinned: [], resultLimit: 5 });
  expect(resolveToolSearch(undefined).mode).toBe('auto');
  expect(resolveToolSearch({ maxTools: 3, pinned: ['a*'] })).toMatchObject({ mode: 'auto', maxTools: 3, pinned: ['a*'] });
});

test('bad settings are InvalidArgument errors naming the field', () => {
  expect(() => resolveToolSearch('sometimes' as never)).toThrow(expect.objectContaining({ code: ErrorCode.InvalidArgument, message: 'toolSearch.mode must be one of off, on, auto, got "sometimes".' }));
  expect(() => resolveToolSearch({ maxTokens: 1.5 }, 'opts.search')).toThrow('opts.search.maxTokens must be a whole number of at least 0, got 1.5.');
  expect(() => resolveToolSearch({ pinned: 'x' as never })).toThrow('toolSearch.pinned must be a list of tool names or globs.');
  expect(() => resolveToolSearch({ resultLimit: 0 })).toThrow('toolSearch.resultLimit must be at least 1.');
});

test('auto: on above the tool count or the token budget, off below both', () => {
  const auto = resolveToolSearch({ mode: 'auto', maxTools: 10, maxTokens: 1000 });
  expect(toolSearchActive(auto, tools(10))).toBe(false);
  expect(toolSearchActive(auto, tools(11))).toBe(true);
  expect(toolSearchActive(auto, tools(2, 'y'.repeat(3000)))).toBe(true);
  expect(toolSearchActive(resolveToolSearch('on'), [])).toBe(true);
  expect(toolSearchActive(resolveToolSearch('off'), tools(500))).toBe(false);
});

test('tokens are estimated from the definition JSON at four characters a token; pinned tools by name or glob', () => {
  const one = tool('read_file', 'Read a file.');
  expect(estimateDefinitionTokens([one])).toBe(Math.ceil(JSON.stringify({ name: 'read_file', description: 'Read a file.', parameters: { type: 'object' } }).length / 4));
  const catalog = [tool('fs__read_file'), tool('fs__write_file'), tool('gh__read_issue')];
  expect(pinnedTools(resolveToolSearch({ pinned: ['fs__read_*', 'gh__read_issue'] }), catalog).map((entry) => entry.name)).toEqual(['fs__read_file', 'gh__read_issue']);
});

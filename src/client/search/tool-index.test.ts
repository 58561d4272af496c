import { expect, test } from 'vitest';
import { ErrorCode } from '../../errors.js';
import type { CatalogTool } from '../multi-server-client.js';
import { ToolIndex } from './tool-index.js';

function tool(server: string, name: string, description: string, properties: Record<string, { description?: string; enum?: string[] }> = {}): CatalogTool {
  return { name: `${server}__${name}`, server, originalName: name, description: `[${server}] ${description}`, inputSchema: { type: 'object', properties } };
}

const catalog = [
  tool('fs', 'read_text_file', 'Read the complete contents of a file as text.', { path: { description: 'Path of the file' } }),
  tool('fs', 'list_directory', 'Get a detailed listing of all files and directories in a specified path.', { path: {} }),
  tool('fs', 'move_file', 'Move or rename files and directories.', { source: {}, destination: {} }),
  tool('github', 'create_pull_request', 'Create a new pull request in a GitHub repository', { owner: {}, repo: {}, head: {}, base: {} }),
  tool('github', 'list_issues', 'List issues in a GitHub repository with filtering options', { state: { enum: ['open', 'closed'] } }),
  tool('browser', 'take_screenshot', 'Take a screenshot of the current page.', { fullPage: { description: 'Capture the whole scrollable page' } }),
  tool('db', 'query', 'Run a read-only SQL query', { sql: {} }),
];

test('ranks by name words, description, parameters and server; best first', () => {
  const index = new ToolIndex();
  index.sync(catalog);
  expect(index.search('take a screenshot')[0]?.tool.originalName).toBe('take_screenshot');
  expect(index.search('rename a file')[0]?.tool.originalName).toBe('move_file');
  expect(index.search('open pull requests on github')[0]?.tool.originalName).toBe('create_pull_request');
  expect(index.search('run sql')[0]?.tool.originalName).toBe('query');
  expect(index.search('closed issues')[0]?.tool.originalName).toBe('list_issues');
  const scores = index.search('file').map((match) => match.score);
  expect(scores).toEqual([...scores].sort((a, b) => b - a));
});

test('matches prefixes (typing) and small typos', () => {
  const index = new ToolIndex();
  index.sync(catalog);
  expect(index.search('screensh')[0]?.tool.originalName).toBe('take_screenshot');
  expect(index.search('screnshot')[0]?.tool.originalName).toBe('take_screenshot');
});

test('limit and servers narrow the results; an empty or filler-only query finds nothing', () => {
  const index = new ToolIndex();
  index.sync(catalog);
  expect(index.search('file', { limit: 2 })).toHaveLength(2);
  expect(index.search('repository file', { servers: ['github'] }).map((match) => match.tool.server)).toEqual(['github', 'github']);
  expect(index.search('')).toEqual([]);
  expect(index.search('the of a')).toEqual([]);
});

test('a bad limit is a clear InvalidArgument', () => {
  const index = new ToolIndex();
  expect(() => index.search('x', { limit: 0 })).toThrow(expect.objectContaining({ code: ErrorCode.InvalidArgument, message: 'The search limit must be a whole number of at least 1, got 0.' }));
  expect(() => index.search('x', { limit: 1.5 })).toThrow(/got 1.5/);
});

test('sync touches only what changed: added, removed, replaced (a changed description is searched by its new words)', () => {
  const index = new ToolIndex();
  expect(index.sync(catalog)).toEqual({ added: 7, removed: 0, replaced: 0 });
  // The catalog rebuilds its entries on every change: equal copies are not re-indexed.
  expect(index.sync(catalog.map((entry) => ({ ...entry })))).toEqual({ added: 0, removed: 0, replaced: 0 });
  const changed = catalog.filter((entry) => entry.originalName !== 'query').map((entry) => (entry.originalName === 'move_file' ? { ...entry, description: '[fs] Relocate a document elsewhere.' } : entry));
  changed.push(tool('db', 'vacuum', 'Reclaim storage of the database'));
  expect(index.sync(changed)).toEqual({ added: 1, removed: 1, replaced: 1 });
  expect(index.size).toBe(7);
  expect(index.search('relocate')[0]?.tool.originalName).toBe('move_file');
  expect(index.search('directories').map((match) => match.tool.originalName)).not.toContain('move_file');
  expect(index.search('sql').map((match) => match.tool.originalName)).not.toContain('query');
  expect(index.search('reclaim storage')[0]?.tool.originalName).toBe('vacuum');
});

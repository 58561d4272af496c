/**
 * The naming decision of issue 15, defect 1: names come from every configured server (live lists,
 * else last known ones), never from which servers happen to be up.
 */
import { expect, test } from 'vitest';
import type { ServerSpecBase, StdioServerSpec } from '../../config/server-spec.js';
import type { ToolDefinition } from '../../connection/mcp-types.js';
import { RoutedCatalog, type RoutedEntry } from './routed-catalog.js';
import { knownToolsFromNames, toolSources, type ToolSourceEntry } from './tool-sources.js';

const FS_TOOLS = ['read_file', 'list_directory', 'list_allowed_directories'];
type Extra = Partial<ServerSpecBase>;
const spec = (name: string, extra: Extra = {}): StdioServerSpec => ({ name, enabled: true, type: 'stdio', command: 'x', args: [], env: {}, inheritEnv: [], startupTimeoutMs: 1, callTimeoutMs: 1, protocol: 'legacy', ...extra });
const live = (name: string, tools: string[], extra: Extra = {}): ToolSourceEntry => ({ spec: spec(name, extra), live: true, tools: knownToolsFromNames(tools), knownTools: knownToolsFromNames(tools) });
const down = (name: string, known: string[] | undefined, extra: Extra = {}): ToolSourceEntry => ({ spec: spec(name, extra), live: false, tools: [], knownTools: known === undefined ? undefined : knownToolsFromNames(known) });

function catalog(entries: ToolSourceEntry[], previous?: RoutedCatalog<RoutedEntry>): RoutedCatalog<RoutedEntry> {
  const { sources, pending } = toolSources(entries);
  return RoutedCatalog.build<ToolDefinition, RoutedEntry>(sources, 'on-conflict', (named) => ({ name: named.name, server: named.server, originalName: named.originalName }), previous, 'tool', { pending });
}
const names = (built: RoutedCatalog<RoutedEntry>) => built.entries.map((entry) => `${entry.server}:${entry.name}`);

test('a server that is down still names its tools from its last known list: the others keep their names', () => {
  const both = catalog([live('filesystem', FS_TOOLS), live('fs2', FS_TOOLS)]);
  const firstDown = catalog([down('filesystem', FS_TOOLS), live('fs2', FS_TOOLS)]);
  expect(names(firstDown)).toEqual(names(both).filter((name) => name.startsWith('fs2:')));
  expect(names(firstDown)).toContain('fs2:fs2__list_allowed_directories');
  // Not offered, not routed — but known as filesystem's.
  expect(firstDown.route('filesystem__list_allowed_directories')).toBeUndefined();
  expect(firstDown.route('list_allowed_directories')).toBeUndefined();
  expect(firstDown.owner('filesystem__list_allowed_directories')).toEqual({ name: 'filesystem__list_allowed_directories', server: 'filesystem', originalName: 'list_allowed_directories', offline: true });
  expect(firstDown.countOf('filesystem')).toBe(0);
  expect(firstDown.report.collisions).toContainEqual({ name: 'read_file', servers: ['filesystem', 'fs2'] });
});

test('a server whose tools were never known keeps every on-conflict name prefixed, and says so', () => {
  const unknown = catalog([down('github', undefined), live('fs', ['read_file']), live('db', ['query'])]);
  expect(names(unknown)).toEqual(['fs:fs__read_file', 'db:db__query']);
  expect(unknown.report.pending).toEqual(['github']);
  // Once known (and not colliding), the bare names come; the prefixed ones still route.
  const known = catalog([live('github', ['search_code']), live('fs', ['read_file']), live('db', ['query'])], unknown);
  expect(names(known)).toEqual(['github:search_code', 'fs:read_file', 'db:query']);
  expect(known.route('fs__read_file')).toMatchObject({ server: 'fs', name: 'read_file' });
  expect(known.report.pending).toBeUndefined();
  // A disabled server does not count.
  expect(names(catalog([down('off', undefined, { enabled: false }), live('fs', ['read_file'])]))).toEqual(['fs:read_file']);
});

test('a bare name handed out never routes to another server when that server adds the same tool', () => {
  const first = catalog([live('a', ['lookup']), live('b', ['other'])]);
  expect(first.route('lookup')?.server).toBe('a');
  const second = catalog([live('a', ['lookup']), live('b', ['other', 'lookup'])], first);
  expect(second.route('lookup')?.server).toBe('a');
  expect(second.route('b__lookup')?.server).toBe('b');
  // a goes down: its names are known but not routable; never b's.
  const third = catalog([down('a', ['lookup']), live('b', ['other', 'lookup'])], second);
  expect(third.route('lookup')).toBeUndefined();
  expect(third.owner('a__lookup')).toMatchObject({ server: 'a', offline: true });
  expect(third.route('b__lookup')?.server).toBe('b');
});

test('every prefixed form routes to its own tool, whatever the strategy chose, including a custom prefix', () => {
  const built = catalog([live('filesystem', ['read_file'], { prefix: 'fs' }), live('db', ['query'])]);
  expect(names(built)).toEqual(['filesystem:read_file', 'db:query']);
  expect(built.route('fs__read_file')).toMatchObject({ server: 'filesystem', originalName: 'read_file' });
  expect(built.route('db__query')).toMatchObject({ server: 'db' });
  expect(built.route('db__read_file')).toBeUndefined();
});

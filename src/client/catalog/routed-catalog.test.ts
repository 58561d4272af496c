import { expect, test } from 'vitest';
import { RoutedCatalog, type RoutedEntry } from './routed-catalog.js';

const build = (servers: Record<string, string[]>, previous?: RoutedCatalog<RoutedEntry>) =>
  RoutedCatalog.build(
    Object.entries(servers).map(([server, names]) => ({ server, prefix: server, items: names.map((name) => ({ name })) })),
    'on-conflict',
    (named) => ({ name: named.name, server: named.server, originalName: named.originalName }),
    previous,
  );

test('a name given out before a rename keeps routing to the same tool', () => {
  const first = build({ fs: ['read_file'] });
  expect(first.version).toBe(1);
  expect(first.route('read_file')).toMatchObject({ server: 'fs', originalName: 'read_file' });
  const second = build({ fs: ['read_file'], db: ['read_file'] }, first);
  expect(second.version).toBe(2);
  expect(second.route('fs__read_file')).toMatchObject({ server: 'fs' });
  expect(second.route('read_file')).toMatchObject({ server: 'fs', name: 'fs__read_file' });
  expect(second.diffFrom(first)).toEqual({ added: ['db__read_file'], removed: [], renamed: [{ from: 'read_file', to: 'fs__read_file' }] });
  // The alias survives further rebuilds, and dies with its tool.
  const third = build({ fs: ['read_file', 'other'], db: ['read_file'] }, second);
  expect(third.route('read_file')).toMatchObject({ server: 'fs' });
  const fourth = build({ db: ['read_file'] }, third);
  expect(fourth.route('read_file')).toMatchObject({ server: 'db' });
  expect(fourth.diffFrom(third)).toEqual({ added: [], removed: ['fs__read_file', 'other'], renamed: [{ from: 'db__read_file', to: 'read_file' }] });
});

test('ofServer and empty', () => {
  const catalog = build({ a: ['x', 'y'], b: ['z'] });
  expect(catalog.ofServer('a').map((entry) => entry.name)).toEqual(['x', 'y']);
  expect(RoutedCatalog.empty('prefix').entries).toEqual([]);
});

import { describe, expect, test } from 'vitest';
import { ConfigError } from '../../errors.js';
import { buildNameCatalog, isProviderSafeName, nameHash, sanitizeName, type NameSource } from './name-catalog.js';

const source = (server: string, names: string[], extra: Partial<NameSource<{ name: string }>> = {}): NameSource<{ name: string }> => ({
  server,
  prefix: server,
  items: names.map((name) => ({ name })),
  ...extra,
});
const exposed = (result: ReturnType<typeof buildNameCatalog>) => result.items.map((item) => `${item.server}:${item.originalName}=${item.name}`);

describe('buildNameCatalog', () => {
  test('on-conflict: unique names stay, colliding names get both servers\' prefixes', () => {
    const result = buildNameCatalog([source('fs', ['read_file', 'search', 'list']), source('db', ['read_file', 'search', 'query'])], 'on-conflict');
    expect(exposed(result)).toEqual(['fs:read_file=fs__read_file', 'fs:search=fs__search', 'fs:list=list', 'db:read_file=db__read_file', 'db:search=db__search', 'db:query=query']);
    expect(result.report.collisions).toEqual([
      { name: 'read_file', servers: ['fs', 'db'] },
      { name: 'search', servers: ['fs', 'db'] },
    ]);
    expect(result.report.renames.map((rename) => rename.reasons)).toEqual([['prefixed'], ['prefixed'], ['prefixed'], ['prefixed']]);
  });

  test('prefix: always prefixed, with per-server prefix override', () => {
    const result = buildNameCatalog([source('filesystem', ['read_file'], { prefix: 'fs' }), source('db', ['query'])], 'prefix');
    expect(exposed(result)).toEqual(['filesystem:read_file=fs__read_file', 'db:query=db__query']);
  });

  test('none: a collision is a config error naming both servers', () => {
    expect(() => buildNameCatalog([source('a', ['x']), source('b', ['x'])], 'none')).toThrow(ConfigError);
    try {
      buildNameCatalog([source('a', ['x']), source('b', ['x'])], 'none');
    } catch (error) {
      expect((error as ConfigError).issues[0]?.message).toBe('tool "x" is offered by servers "a" and "b"');
    }
    expect(exposed(buildNameCatalog([source('a', ['x']), source('b', ['y'])], 'none'))).toEqual(['a:x=x', 'b:y=y']);
  });

  test('dots, spaces and other characters are replaced; every name is provider-safe', () => {
    const result = buildNameCatalog([source('my server.v2', ['files.read', 'two words', 'ünïcode/tool', ''])], 'prefix');
    for (const item of result.items) expect(isProviderSafeName(item.name)).toBe(true);
    expect(result.items.map((item) => item.name)).toEqual(['my_server_v2__files_read', 'my_server_v2__two_words', 'my_server_v2___n_code_tool', 'my_server_v2___']);
  });

  test('names over 64 characters are cut with a stable hash, and two long names never collide', () => {
    const long = 'a'.repeat(80);
    const longer = `${long}b`;
    const first = buildNameCatalog([source('srv', [long, longer])], 'on-conflict');
    const [one, two] = first.items;
    expect(one?.name).toHaveLength(64);
    expect(two?.name).toHaveLength(64);
    expect(one?.name).not.toBe(two?.name);
    expect(one?.name.endsWith(nameHash('srv', long))).toBe(true);
    // Stable across rebuilds, whatever else is in the catalog.
    const again = buildNameCatalog([source('other', ['x']), source('srv', [longer, long])], 'on-conflict');
    expect(again.items.find((item) => item.originalName === long)?.name).toBe(one?.name);
    expect(first.report.renames[0]?.reasons).toEqual(['truncated']);
  });

  test('names that sanitize alike on one server are deduplicated, not dropped', () => {
    const result = buildNameCatalog([source('s', ['a.b', 'a_b', 'a b'])], 'on-conflict');
    const names = result.items.map((item) => item.name);
    expect(new Set(names).size).toBe(3);
    expect(names[0]).toBe('a_b');
    expect(result.report.renames.filter((rename) => rename.reasons.includes('deduplicated'))).toHaveLength(2);
  });

  test('include / exclude globs, reported', () => {
    const result = buildNameCatalog([source('s', ['read_file', 'write_file', 'delete', 'list'], { include: ['*_file', 'list'], exclude: ['write_*'] })], 'on-conflict');
    expect(result.items.map((item) => item.name)).toEqual(['read_file', 'list']);
    expect(result.report.filtered).toEqual([
      { server: 's', originalName: 'write_file', by: 'exclude' },
      { server: 's', originalName: 'delete', by: 'include' },
    ]);
  });
});

test('sanitizeName and isProviderSafeName', () => {
  expect(sanitizeName('a.b c')).toBe('a_b_c');
  expect(isProviderSafeName('ok_name-1')).toBe(true);
  expect(isProviderSafeName('no.dots')).toBe(false);
  expect(isProviderSafeName('x'.repeat(65))).toBe(false);
});

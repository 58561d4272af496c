import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { StdioServerSpec } from '../../config/server-spec.js';
import { noopLogger, type Logger } from '../../logger.js';
import { FileCatalogStore, stableJson } from './catalog-store.js';

let dir: string;
beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'sb-catalog-')), 'catalog');
});
afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

const spec = (name: string, args: string[] = ['a'], env: Record<string, string> = {}): StdioServerSpec => ({
  name, enabled: true, type: 'stdio', command: 'node', args, env, inheritEnv: [], startupTimeoutMs: 1, callTimeoutMs: 1, protocol: 'legacy',
});
function recordingLogger(lines: string[]): Logger {
  const logger: Logger = { ...noopLogger, debug: (message) => lines.push(message), child: () => logger };
  return logger;
}

test('saved names load back for the same spec; the file holds names, not the spec or its secrets', async () => {
  const store = new FileCatalogStore(dir, noopLogger);
  const fs = spec('fs', ['a'], { TOKEN: 'sk-very-secret-value' });
  await store.save(fs, ['read_file', 'list_directory']);
  const loaded = await new FileCatalogStore(dir, noopLogger).load([fs, spec('other')]);
  expect(loaded.get('fs')).toEqual({ tools: ['list_directory', 'read_file'], exact: true });
  expect(loaded.has('other')).toBe(false);
  const files = readdirSync(dir);
  expect(files).toEqual([`fs.${FileCatalogStore.keyOf(fs)}.json`]);
  expect(readFileSync(join(dir, files[0] ?? ''), 'utf8')).not.toContain('sk-very-secret-value');
});

test('the key is a hash of the normalized spec: key order does not matter, any change does', () => {
  const a = spec('fs');
  const reordered: StdioServerSpec = { protocol: 'legacy', callTimeoutMs: 1, startupTimeoutMs: 1, inheritEnv: [], env: {}, args: ['a'], command: 'node', type: 'stdio', enabled: true, name: 'fs' };
  expect(stableJson(reordered)).toBe(stableJson(a));
  expect(FileCatalogStore.keyOf(reordered)).toBe(FileCatalogStore.keyOf(a));
  expect(FileCatalogStore.keyOf(spec('fs', ['b']))).not.toBe(FileCatalogStore.keyOf(a));
});

test('an edited entry: the names of its earlier specs stand in (not exact) until it lists again', async () => {
  const store = new FileCatalogStore(dir, noopLogger);
  await store.save(spec('fs', ['old']), ['read_file']);
  await store.save(spec('fs2', ['x']), ['unrelated']);
  const loaded = await store.load([spec('fs', ['new'])]);
  expect(loaded.get('fs')).toEqual({ tools: ['read_file'], exact: false });
});

test('a corrupt or foreign file is ignored with a debug line; writes leave no temp files', async () => {
  const lines: string[] = [];
  const store = new FileCatalogStore(dir, recordingLogger(lines));
  const fs = spec('fs');
  await store.save(fs, ['read_file']);
  const file = join(dir, `fs.${FileCatalogStore.keyOf(fs)}.json`);
  writeFileSync(file, '{ not json');
  expect((await store.load([fs])).has('fs')).toBe(false);
  writeFileSync(file, JSON.stringify({ version: 1, server: 'someone-else', tools: ['x'] }));
  expect((await store.load([fs])).has('fs')).toBe(false);
  expect(lines.filter((line) => line.startsWith('ignoring a catalog cache file'))).toHaveLength(2);
  await store.save(fs, ['read_file', 'write_file']);
  expect((await store.load([fs])).get('fs')?.tools).toEqual(['read_file', 'write_file']);
  expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
});

test('a directory that cannot be written is logged at debug, never thrown', async () => {
  const blocker = join(dir, '..', 'file');
  writeFileSync(blocker, '');
  const lines: string[] = [];
  const store = new FileCatalogStore(join(blocker, 'catalog'), recordingLogger(lines));
  await expect(store.save(spec('fs'), ['x'])).resolves.toBeUndefined();
  expect(lines[0]).toContain('could not be written');
  expect(await store.load([spec('fs')])).toEqual(new Map());
});

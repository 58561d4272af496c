import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { ErrorCode, isSwitchboardError, type SwitchboardError } from '../errors.js';
import { loadConfig } from './config-entry.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sb-load-options-'));
  writeFileSync(join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { fromCwd: { command: 'x' } } }));
  writeFileSync(join(dir, 'mine.json'), JSON.stringify({ mcpServers: { mine: { command: 'x' } } }));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function rejection(options: unknown): Promise<SwitchboardError> {
  // Options from JavaScript or from JSON are not checked by the compiler.
  const error: unknown = await (loadConfig as (options: unknown) => Promise<unknown>)(options).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isSwitchboardError(error)) throw new Error(`expected a SwitchboardError, got ${String(error)}`);
  return error;
}

test('`path` is refused, naming `configPath`, instead of silently loading the working directory’s config', async () => {
  const options = { path: join(dir, 'mine.json'), cwd: dir, env: {} };
  const error = await rejection(options);
  expect(error.code).toBe(ErrorCode.InvalidArgument);
  expect(error.message).toBe('loadConfig: unknown option `path`; use `configPath` to name the config file');
  expect(error.details).toMatchObject({ option: 'path' });
  // The right option loads the named file.
  expect((await loadConfig({ configPath: join(dir, 'mine.json'), cwd: dir, env: {} })).config.servers.map((spec) => spec.name)).toEqual(['mine']);
});

test('any other unknown option is refused and the known ones are listed', async () => {
  const error = await rejection({ cwd: dir, env: {}, strict: true });
  expect(error.message).toBe('loadConfig: unknown option `strict`; the options are configPath, cwd, env, inputs, askInput');
});

test('wrong types and a bare string are refused with what to pass', async () => {
  expect((await rejection({ configPath: 42 })).message).toBe('loadConfig: `configPath` must be a string (a file path), got number');
  expect((await rejection({ env: 'x' })).message).toBe('loadConfig: `env` must be an object of strings, got string');
  expect((await rejection('mine.json')).message).toBe("loadConfig: options must be an object; to load a file, pass { configPath: 'mine.json' }");
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ConfigError } from '../errors.js';
import { loadConfig } from './load-config.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sb-config-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function loadError(options: Parameters<typeof loadConfig>[0]): Promise<ConfigError> {
  try {
    await loadConfig(options);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  test('finds the first default file and resolves paths against its folder', async () => {
    writeFileSync(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { b: { command: 'b' } } }));
    writeFileSync(join(dir, 'switchboard.yaml'), 'mcpServers:\n  a:\n    path: ./s.py\n');
    const loaded = await loadConfig({ cwd: dir, env: {} });
    expect(loaded.source).toBe(join(dir, 'switchboard.yaml'));
    expect(loaded.config.servers[0]).toMatchObject({ name: 'a', command: 'python3', args: [join(dir, 's.py')] });
  });

  test('--config wins over SWITCHBOARD_CONFIG, which wins over the defaults', async () => {
    writeFileSync(join(dir, 'one.json'), JSON.stringify({ mcpServers: { one: { command: 'x' } } }));
    writeFileSync(join(dir, 'two.json'), JSON.stringify({ mcpServers: { two: { command: 'x' } } }));
    writeFileSync(join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { three: { command: 'x' } } }));
    expect((await loadConfig({ cwd: dir, env: { SWITCHBOARD_CONFIG: 'two.json' }, configPath: 'one.json' })).config.servers[0]?.name).toBe('one');
    expect((await loadConfig({ cwd: dir, env: { SWITCHBOARD_CONFIG: 'two.json' } })).config.servers[0]?.name).toBe('two');
    expect((await loadConfig({ cwd: dir, env: {} })).config.servers[0]?.name).toBe('three');
  });

  test('no file: says where it looked and what to do', async () => {
    const error = await loadError({ cwd: dir, env: {} });
    expect(error.message).toContain('no config file found');
    expect(error.issues[0]?.hint).toContain('--config');
    expect((await loadError({ cwd: dir, env: {}, configPath: 'missing.yaml' })).message).toContain('does not exist');
  });

  test('JSON syntax errors give line and column, never the text', async () => {
    writeFileSync(join(dir, 'bad.json'), '{\n  "mcpServers": {\n    "a": { "apiKey": "sk-secret-value" "command": "x" }\n  }\n}\n');
    const error = await loadError({ cwd: dir, env: {}, configPath: 'bad.json' });
    expect(error.issues[0]?.message).toMatch(/^invalid JSON at line 3, column \d+$/);
    expect(error.message).not.toContain('sk-secret-value');
    writeFileSync(join(dir, 'bad2.json'), '{"mcpServers": {"a": sk-secret-value}}');
    const second = await loadError({ cwd: dir, env: {}, configPath: 'bad2.json' });
    expect(second.message).not.toContain('sk-secret-value');
  });

  test('YAML syntax errors give the line', async () => {
    writeFileSync(join(dir, 'bad.yaml'), 'mcpServers:\n  a:\n    command: [unclosed\n');
    const error = await loadError({ cwd: dir, env: {}, configPath: 'bad.yaml' });
    expect(error.issues[0]?.message).toMatch(/^invalid YAML, line \d+, column \d+/);
  });

  test('validation errors name the file', async () => {
    writeFileSync(join(dir, 'switchboard.json'), JSON.stringify({ mcpServers: { a: {} } }));
    const error = await loadError({ cwd: dir, env: {} });
    expect(error.message.startsWith(join(dir, 'switchboard.json'))).toBe(true);
    expect(error.issues).toHaveLength(1);
  });
});

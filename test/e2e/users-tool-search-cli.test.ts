/**
 * `switchboard users tool-search NAME off|on|auto [--pinned …]` with the built CLI on an SQLite
 * registry: the setting is stored on the user (as the gateway reads it), shown, removed with `off`, and
 * a bad mode is a usage error without a stack trace.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { ServerRegistry } from '../../src/registry/server-registry.js';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'switchboard-users-search-'));
const db = join(dir, 'switchboard.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = (...args: string[]) => runCli(args, { cwd: dir, env: { HOME: dir, SWITCHBOARD_DB: db }, timeoutMs: 20_000 });

test('users tool-search sets, shows and removes a user\'s mode; a bad mode is a usage error', async () => {
  expect((await run('users', 'add', 'alice')).code).toBe(0);
  const set = await run('users', 'tool-search', 'alice', 'auto', '--pinned', 'files__read_*, echo');
  expect(set.stderr).toBe('');
  expect(set.code).toBe(0);
  expect(set.stdout).toContain('tool search for alice: auto, pinned files__read_*, echo');
  const registry = await ServerRegistry.open({ db, keyFile: join(dir, 'secret.key'), watch: false });
  try {
    expect((await registry.users.get('alice')).toolSearch).toEqual({ mode: 'auto', pinned: ['files__read_*', 'echo'] });
  } finally {
    await registry.close();
  }
  const off = await run('users', 'tool-search', 'alice', 'off');
  expect(off.stdout).toContain('tool search for alice: off (every tool definition on /mcp)');
  const bad = await run('users', 'tool-search', 'alice', 'sometimes');
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('the mode must be one of off, on, auto, got "sometimes"');
  expect(bad.stderr).not.toMatch(/\n\s+at /);
});

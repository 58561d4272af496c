/**
 * The built CLI with two real server-filesystem instances on different folders (issue 15, defect 1):
 * `call NAME --server X` uses the names `tools` shows, a prefixed name runs on its own folder, and
 * with the catalog cache beside the config a `call` starts only the server that owns the tool
 * (counted by the fixture wrapper, which records every start).
 */
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { FIXTURES, ROOT } from '../helpers/fixtures.js';
import { runCli } from '../helpers/run-cli.js';
import { makeTwoFolders } from '../helpers/two-folders.js';

const FILESYSTEM = resolve(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const HELD = resolve(FIXTURES, 'held-server.mjs');

let dir: string;
let one: string;
let two: string;
let record: string;
let config: string;
beforeAll(() => {
  ({ dir, one, two, record } = makeTwoFolders('sb-call-naming-'));
  config = join(dir, 'mcp.json');
  const server = (label: string, folder: string) => ({ command: process.execPath, args: [HELD, '--record', record, '--label', label, FILESYSTEM, folder] });
  writeFileSync(config, JSON.stringify({ mcpServers: { filesystem: server('filesystem', one), fs2: server('fs2', two) } }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const starts = () => (existsSync(record) ? readFileSync(record, 'utf8').trim().split('\n').map((line) => line.split(' ')[0]) : []);
const toolNames = (stdout: string) => (JSON.parse(stdout) as { tools: Array<{ name: string; server: string }> }).tools.map((tool) => `${tool.server}:${tool.name}`);

test('call NAME --server X takes the names tools shows; a call starts only the owner once the catalog is cached', async () => {
  // Cold cache: `call` does not know whose the name is, so it starts both, and caches their lists.
  const cold = await runCli(['call', 'filesystem__list_directory', '--config', config, '--server', 'filesystem', '--args', JSON.stringify({ path: one })], { timeoutMs: 60_000 });
  expect(cold.stderr).not.toContain('Did you mean');
  expect(cold.code).toBe(0);
  expect(cold.stdout).toContain('only-in-one.txt');
  expect(readdirSync(join(dir, '.switchboard', 'catalog')).filter((file) => file.endsWith('.json'))).toHaveLength(2);

  const all = await runCli(['tools', '--config', config, '--json'], { timeoutMs: 60_000 });
  expect(all.code).toBe(0);
  const names = toolNames(all.stdout);
  expect(names).toContain('filesystem:filesystem__list_directory');
  expect(names).toContain('fs2:fs2__list_directory');
  // --server shows that server's part of the same names.
  const one_ = await runCli(['tools', '--config', config, '--server', 'fs2', '--json'], { timeoutMs: 60_000 });
  expect(toolNames(one_.stdout)).toEqual(names.filter((name) => name.startsWith('fs2:')));

  rmSync(record);
  const warm = await runCli(['call', 'fs2__list_directory', '--config', config, '--args', JSON.stringify({ path: two })], { timeoutMs: 60_000 });
  expect(warm.code).toBe(0);
  expect(warm.stdout).toContain('only-in-two.txt');
  expect(starts()).toEqual(['fs2']);

  // Another server's tool under --server is refused, and the suggestions are that server's only.
  rmSync(record);
  const wrong = await runCli(['call', 'fs2__list_directory', '--config', config, '--server', 'filesystem', '--json', '--args', JSON.stringify({ path: two })], { timeoutMs: 60_000 });
  expect(wrong.code).toBe(1);
  const error = (JSON.parse(wrong.stdout) as { error: { code: string; message: string } }).error;
  expect(error.code).toBe('TOOL_NOT_FOUND');
  expect(error.message).toContain('is a tool of server "fs2"');
  expect(error.message).not.toMatch(/Did you mean[^?]*"fs2__/);
  expect(starts()).toEqual(['filesystem']);

  // A typo gets a suggestion of the same server.
  const typo = await runCli(['call', 'filesystem__read_txt_file', '--config', config, '--args', JSON.stringify({ path: join(one, 'only-in-one.txt') })], { timeoutMs: 60_000 });
  expect(typo.code).toBe(1);
  expect(typo.stderr).toContain('Did you mean "filesystem__read_text_file"?');
}, 180_000);

test('a call to a tool whose server does not come up says so, with the reason and hint (its entry edited: earlier names still count)', async () => {
  // filesystem now waits for a gate that never opens, within a 1 s deadline: a new spec, so only its
  // earlier lists (cached by the test above) say the name is its.
  const held = join(dir, 'held.json');
  const entry = (label: string, folder: string, extra: string[] = []) => ({ command: process.execPath, args: [HELD, '--record', record, '--label', label, ...extra, FILESYSTEM, folder] });
  writeFileSync(held, JSON.stringify({ mcpServers: { filesystem: { ...entry('filesystem', one, ['--wait-for', join(dir, 'never')]), timeout: 1 }, fs2: entry('fs2', two) } }));
  if (existsSync(record)) rmSync(record);
  const run = await runCli(['call', 'filesystem__list_directory', '--config', held, '--json', '--args', JSON.stringify({ path: one })], { timeoutMs: 60_000 });
  expect(run.code).toBe(1);
  const error = (JSON.parse(run.stdout) as { error: { code: string; message: string; server?: string; hint?: string } }).error;
  expect(error).toMatchObject({ code: 'SERVER_DISCONNECTED', server: 'filesystem', hint: expect.stringContaining('timeout') });
  expect(error.message).toMatch(/^Tool "filesystem__list_directory" belongs to server "filesystem", which is failed \(did not complete the handshake within 1 s\)/);
  expect(starts()).toEqual(['filesystem']);
}, 60_000);

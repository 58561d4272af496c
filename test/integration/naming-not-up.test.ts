/**
 * Names never depend on which servers are up (issue 15, defect 1): two real server-filesystem
 * instances on different folders, one held back at start-up by a gate file. Names are the same
 * whatever the order the servers come up in, a prefixed name always runs on its own folder, "Did you
 * mean" stays within the server the caller named, and a call to a server that is not up says so.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { MultiServerClient } from '../../src/client/multi-server-client.js';
import { ErrorCode, type SwitchboardError } from '../../src/errors.js';
import { FIXTURES, ROOT } from '../helpers/fixtures.js';
import { connectForEachTest } from '../helpers/connect-for-each-test.js';
import { nextEvent } from '../helpers/next-event.js';
import { makeTwoFolders } from '../helpers/two-folders.js';

const FILESYSTEM = resolve(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const HELD = resolve(FIXTURES, 'held-server.mjs');
const connect = connectForEachTest();

let dir: string;
let one: string;
let two: string;
let gate: string;
let record: string;
beforeEach(() => {
  ({ dir, one, two, record } = makeTwoFolders('sb-naming-'));
  gate = join(dir, 'gate');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The two filesystems; `held` waits for the gate file before it starts. */
function config(held: 'filesystem' | 'fs2' = 'filesystem'): Record<string, unknown> {
  const entry = (label: string, folder: string) => ({
    command: process.execPath,
    args: [HELD, '--record', record, '--label', label, ...(label === held ? ['--wait-for', gate] : []), FILESYSTEM, folder],
    // A generous deadline: being slow is the gate's doing, never the machine's load.
    timeout: 60,
  });
  return { naming: 'on-conflict', mcpServers: { filesystem: entry('filesystem', one), fs2: entry('fs2', two) } };
}

const namesOf = (client: MultiServerClient) => client.listTools().map((tool) => `${tool.server}:${tool.originalName}=${tool.name}`).sort();
const textOf = async (client: MultiServerClient, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool(name, args)).content.map((item) => (item.type === 'text' ? item.text : '')).join('\n');
const failureOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as SwitchboardError);

test('names are the same whatever the order the servers come up in; a prefixed name always runs on its own folder', async () => {
  writeFileSync(gate, '');
  const both = await connect(config());
  const expected = namesOf(both);
  expect(expected).toContain('filesystem:list_allowed_directories=filesystem__list_allowed_directories');
  expect(expected).toContain('fs2:list_allowed_directories=fs2__list_allowed_directories');
  await both.close();

  // Now filesystem is slow: fs2 is up while filesystem is still starting (held by the gate).
  rmSync(gate);
  const late = await connect(config(), { autoStart: ['fs2'] });
  const starting = late.startServer('filesystem');
  expect(late.status().find((server) => server.name === 'filesystem')?.state).toBe('connecting');
  // fs2's names stay prefixed: a bare name now could later belong to filesystem.
  expect(namesOf(late)).toEqual(expected.filter((name) => name.startsWith('fs2:')));
  const bare = await failureOf(late.callTool('list_allowed_directories'));
  expect(bare?.code).toBe(ErrorCode.ToolNotFound);
  // The name of the server that is not up says so, instead of "no such tool" or another server's tool.
  const notUp = await failureOf(late.callTool('filesystem__list_allowed_directories'));
  expect(notUp).toMatchObject({ code: ErrorCode.ServerDisconnected, server: 'filesystem' });
  expect(notUp?.message).toContain('addressed to server "filesystem", which is connecting (still starting)');
  expect(notUp?.message).not.toContain('Did you mean');

  const up = nextEvent(late, 'tools-changed', (event) => event.reason === 'server-up' && event.server === 'filesystem');
  writeFileSync(gate, '');
  await Promise.all([up, starting]);
  expect(namesOf(late)).toEqual(expected);
  expect(await textOf(late, 'filesystem__list_allowed_directories')).toContain(one);
  expect(await textOf(late, 'filesystem__list_allowed_directories')).not.toContain(two);
  expect(await textOf(late, 'fs2__list_allowed_directories')).toContain(two);
  expect(await textOf(late, 'filesystem__list_directory', { path: one })).toContain('only-in-one.txt');
  await late.close();

  // The other order: fs2 is the slow one.
  rmSync(gate);
  const reverse = await connect(config('fs2'), { autoStart: ['filesystem'] });
  const fs2Starting = reverse.startServer('fs2');
  expect(namesOf(reverse)).toEqual(expected.filter((name) => name.startsWith('filesystem:')));
  writeFileSync(gate, '');
  await fs2Starting;
  expect(namesOf(reverse)).toEqual(expected);
  expect(await textOf(reverse, 'fs2__list_allowed_directories')).toContain(two);
}, 120_000);

test('"Did you mean" stays within the server the caller named, by prefix or by `server`', async () => {
  writeFileSync(gate, '');
  const client = await connect(config());
  const typo = await failureOf(client.callTool('filesystem__read_txt_file', { path: join(one, 'only-in-one.txt') }));
  expect(typo?.code).toBe(ErrorCode.ToolNotFound);
  expect(typo?.details.similar).toEqual(['filesystem__read_text_file']);
  // The bare original name, addressed to one server: only that server's tools are suggested.
  const onServer = await failureOf(client.callTool('list_allowed_directories', {}, { server: 'filesystem' }));
  expect(onServer?.details.similar).toEqual(['filesystem__list_allowed_directories']);
  // Another server's tool is refused, not run elsewhere.
  const other = await failureOf(client.callTool('fs2__list_allowed_directories', {}, { server: 'filesystem' }));
  expect(other?.code).toBe(ErrorCode.ToolNotFound);
  expect(other?.message).toContain('is a tool of server "fs2"');
  for (const name of (other?.details.similar as string[] | undefined) ?? []) expect(name.startsWith('filesystem__')).toBe(true);
  expect((await client.callTool('filesystem__list_allowed_directories', {}, { server: 'filesystem' })).isError).toBe(false);
});

test('with the catalog cache, a server that is not up still names its tools, and a call to one says the server is not up', async () => {
  const cache = join(dir, 'cache');
  writeFileSync(gate, '');
  const first = await connect(config(), { catalogCache: cache });
  const expected = namesOf(first);
  await first.close();

  rmSync(gate);
  const second = await connect(config(), { catalogCache: cache, autoStart: ['fs2'] });
  expect(namesOf(second)).toEqual(expected.filter((name) => name.startsWith('fs2:')));
  expect(second.ownerOf('filesystem__list_directory')).toEqual({ server: 'filesystem', originalName: 'list_directory', offered: false });
  expect(second.ownerOf('fs2__list_directory')).toEqual({ server: 'fs2', originalName: 'list_directory', offered: true });
  const closed = await failureOf(second.callTool('filesystem__list_directory', { path: one }));
  expect(closed).toMatchObject({ code: ErrorCode.ServerDisconnected, server: 'filesystem', details: { state: 'closed' } });
  expect(closed?.message).toContain('belongs to server "filesystem", which is closed (not started)');
  expect(readFileSync(record, 'utf8').match(/^filesystem /gm)).toHaveLength(1);
});

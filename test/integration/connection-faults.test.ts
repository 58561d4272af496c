/**
 * Faults at connection level, each against a real misbehaving server (test/fixtures/servers/fault-server.mjs).
 */
import { afterEach, expect, test } from 'vitest';
import { ServerConnection } from '../../src/connection/server-connection.js';
import { ErrorCode, type SwitchboardError } from '../../src/errors.js';
import { FAULT_SERVER as FAULT_SERVER_PATH, faultSpec, specOf } from '../helpers/fixtures.js';
import { groupMembers, isAlive, waitFor } from '../helpers/processes.js';
import { recordingLogger } from '../helpers/recording-logger.js';

const open: ServerConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

function track(connection: ServerConnection): ServerConnection {
  open.push(connection);
  return connection;
}

async function startFailure(connection: ServerConnection): Promise<SwitchboardError> {
  track(connection);
  try {
    await connection.connect();
  } catch (error) {
    return error as SwitchboardError;
  }
  throw new Error('expected connect() to fail');
}

test('a command that does not exist: SERVER_START_FAILED, command-not-found, with a hint', async () => {
  const error = await startFailure(new ServerConnection(specOf('ghost', { command: 'definitely-not-a-command-xyz' })));
  expect(error.code).toBe(ErrorCode.ServerStartFailed);
  expect(error.message).toContain('command not found: definitely-not-a-command-xyz');
  expect(error.hint).toContain('PATH');
  expect(error.details.reason).toBe('command-not-found');
});

test('a server that exits at start: exit code and stderr in the error', async () => {
  const error = await startFailure(new ServerConnection(faultSpec('dies', 'exit-at-start')));
  expect(error.code).toBe(ErrorCode.ServerStartFailed);
  expect(error.message).toContain('exited with code 3 during start-up');
  expect(error.message).toContain('fatal: FAULT_TOKEN is not set');
  expect(error.details).toMatchObject({ reason: 'exited', exitCode: 3, stderr: expect.stringContaining('FAULT_TOKEN') });
  expect(error.hint).toContain('run it by hand');
});

test('a server that never answers initialize fails by its deadline, and leaves no process', async () => {
  const connection = new ServerConnection(faultSpec('silent', 'never-initialize', { timeout: '800ms' }));
  const started = Date.now();
  const error = await startFailure(connection);
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(error.code).toBe(ErrorCode.ServerStartFailed);
  expect(error.message).toBe('server "silent" did not complete the handshake within 0.8 s');
  expect(error.details).toMatchObject({ reason: 'timeout', timeoutMs: 800 });
  const pid = connection.pid;
  await connection.close();
  if (pid !== undefined) expect(groupMembers(pid)).toEqual([]);
});

test('non-JSON lines on stdout are tolerated and logged at debug', async () => {
  const logger = recordingLogger();
  const connection = track(new ServerConnection(faultSpec('noisy', 'noisy-stdout'), { logger }));
  await connection.connect();
  expect((await connection.callTool('echo', { message: 'through the noise' })).content).toEqual([{ type: 'text', text: 'through the noise' }]);
  const ignored = logger.lines.filter((line) => line.message === 'ignored a non-JSON line on stdout');
  expect(ignored.length).toBeGreaterThanOrEqual(2);
  expect(ignored[0]).toMatchObject({ level: 'debug', fields: { server: 'noisy', line: expect.stringContaining('banner') } });
});

test('an unsupported protocol version names both sides', async () => {
  const error = await startFailure(new ServerConnection(faultSpec('old', 'bad-version')));
  expect(error.code).toBe(ErrorCode.ProtocolVersionUnsupported);
  expect(error.message).toContain('speaks protocol version 1999-01-01');
  expect(error.message).toContain('2025-11-25');
  expect(error.details.supportedVersions).toContain('2025-06-18');
});

test('a server that needs notifications/initialized before tools/list gets it first', async () => {
  const connection = track(new ServerConnection(faultSpec('strict', 'strict-initialized')));
  await connection.connect();
  expect((await connection.listTools()).map((tool) => tool.name)).toContain('echo');
});

test('a server that dies during a call: the call rejects at once with SERVER_DISCONNECTED', async () => {
  const connection = track(new ServerConnection(faultSpec('fragile', 'ok', { callTimeout: 30, restart: false })));
  const disconnected = new Promise<SwitchboardError>((resolve) => connection.on('disconnected', ({ error }) => resolve(error)));
  await connection.connect();
  const pending = connection.callTool('hang');
  const started = Date.now();
  const dying = connection.callTool('die');
  await expect(dying).rejects.toMatchObject({ code: ErrorCode.ServerDisconnected });
  await expect(pending).rejects.toMatchObject({ code: ErrorCode.ServerDisconnected });
  expect(Date.now() - started).toBeLessThan(1_000);
  const error = await disconnected;
  expect(error.message).toContain('exited with code 1');
  expect(connection.state).toBe('failed');
});

test('closing ends grandchildren too (the whole process group)', async () => {
  const connection = track(new ServerConnection(faultSpec('parent', 'grandchild')));
  const grandchild = new Promise<number>((resolve) =>
    connection.on('stderr', ({ line }) => {
      const match = /grandchild (\d+)/.exec(line);
      if (match?.[1] !== undefined) resolve(Number(match[1]));
    }),
  );
  await connection.connect();
  const pid = await grandchild;
  expect(isAlive(pid)).toBe(true);
  await connection.close();
  expect(isAlive(pid)).toBe(false);
});

test('a server that ignores stdin EOF and SIGTERM is killed, within bounded time', async () => {
  const connection = track(new ServerConnection(faultSpec('stubborn', 'ignore-sigterm')));
  await connection.connect();
  const pid = connection.pid ?? -1;
  const started = Date.now();
  await connection.close();
  expect(Date.now() - started).toBeLessThan(4_000);
  expect(isAlive(pid)).toBe(false);
});

test('closing while connecting stops the start-up and leaves nothing running', async () => {
  const connection = track(new ServerConnection(faultSpec('slow', 'never-initialize', { timeout: 30 })));
  const connecting = connection.connect();
  await waitFor(() => connection.pid !== undefined, 5_000, 'the server to be spawned');
  const pid = connection.pid ?? -1;
  await connection.close();
  await expect(connecting).rejects.toMatchObject({ code: ErrorCode.ServerDisconnected });
  expect(isAlive(pid)).toBe(false);
});

test('tools/list pagination is followed to the end; a cursor that never ends is cut off with a clear error', async () => {
  const paged = track(new ServerConnection(faultSpec('paged', 'ok', { args: [FAULT_SERVER_PATH, '--mode', 'ok', '--page-size', '3'] })));
  await paged.connect();
  const names = (await paged.listTools()).map((tool) => tool.name);
  expect(names).toEqual(['echo', 'die', 'hang', 'big', 'slow', 'count', 'add_tool', 'crash_once', 'write_crash_once', 'drip', 'flood']);
  const endless = track(new ServerConnection(faultSpec('endless', 'ok', { args: [FAULT_SERVER_PATH, '--mode', 'ok', '--endless-cursor'] })));
  await endless.connect();
  await expect(endless.listTools()).rejects.toMatchObject({ code: ErrorCode.ServerRequestFailed, message: expect.stringContaining('pagination did not end after 64 pages') });
});

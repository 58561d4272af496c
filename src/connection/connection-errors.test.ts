import { describe, expect, test } from 'vitest';
import { ErrorCode, SwitchboardError } from '../errors.js';
import { toSwitchboardError } from '../to-switchboard-error.js';
import { closedError, invalidResultError, notConnectedError, reasonAt } from './connection-errors.js';

describe('connection errors carry their location as fields', () => {
  test('a server-level error: server and reason as fields, the message rendered once from them', () => {
    const error = closedError('fs');
    expect(error).toMatchObject({ code: ErrorCode.ServerDisconnected, server: 'fs', reason: 'the connection was closed', message: 'server "fs": the connection was closed' });
    expect(reasonAt(error, 'fs')).toBe('the connection was closed');
    // Another server's error, or one about an operation, is shown whole.
    expect(reasonAt(error, 'other')).toBe('server "fs": the connection was closed');
    const timeout = toSwitchboardError(new Error('boom'), { server: 'fs', operation: 'tools/call echo' });
    expect(timeout).toMatchObject({ server: 'fs', operation: 'tools/call echo', reason: 'boom', message: 'server "fs", tools/call echo: boom' });
    expect(reasonAt(timeout, 'fs')).toBe('server "fs", tools/call echo: boom');
  });

  test('not connected: the last error by its reason, without repeating the server', () => {
    const last = new SwitchboardError(ErrorCode.ServerDisconnected, 'server "fs": the server process exited with code 1', { server: 'fs', reason: 'the server process exited with code 1' });
    const error = notConnectedError('fs', 'failed', last, true);
    expect(error.message).toBe('server "fs" is not connected (failed): the server process exited with code 1 (restarts gave up for now; it will be probed again)');
    expect(error).toMatchObject({ server: 'fs', cause: last });
  });

  test('an invalid result names server and operation as fields', () => {
    expect(invalidResultError('fs', 'tools/list', '`tools` is not an array')).toMatchObject({
      code: ErrorCode.ServerRequestFailed,
      server: 'fs',
      operation: 'tools/list',
      reason: 'invalid result: `tools` is not an array',
      message: 'server "fs", tools/list: invalid result: `tools` is not an array',
    });
  });
});

import { expect, test } from 'vitest';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import { describeCallFailure } from './call-failure.js';

const timeout = new SwitchboardError(ErrorCode.RequestTimeout, 'server "s", tools/call slow: no answer within 500 ms', {
  server: 's',
  hint: 'the server may be busy or stuck; raise `callTimeout` if the work is legitimately slow',
});

test('a timeout under the config deadline keeps the hint that names `callTimeout`', () => {
  expect(describeCallFailure(timeout, { name: 'slow', server: 's' }).hint).toContain('raise `callTimeout`');
});

test('a timeout under the call’s own timeoutMs names that option', () => {
  const described = describeCallFailure(timeout, { name: 'slow', server: 's' }, 500);
  expect(described.code).toBe(ErrorCode.RequestTimeout);
  expect(described.hint).toBe("the server may be busy or stuck; raise the call's `timeoutMs` (500 ms now) if the work is legitimately slow");
});

test('the failure is told by its `reason`, not by cutting the message apart', () => {
  // A location the old prefix pattern cannot cut off (a colon in the operation), with the reason given.
  const failure = new SwitchboardError(ErrorCode.ServerRequestFailed, 'server "s", tools/call a:b: MCP error -32602: bad input.', { server: 's', reason: 'MCP error -32602: bad input.' });
  const described = describeCallFailure(failure, { name: 'a:b', server: 's' });
  expect(described.message).toBe('Tool "a:b" on server "s" failed: MCP error -32602: bad input. Retrying the same call will not help; check the arguments or use another tool.');
  expect(described).toMatchObject({ server: 's', tool: 'a:b', operation: 'tools/call', reason: 'MCP error -32602: bad input' });
});

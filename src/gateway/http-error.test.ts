import { expect, test } from 'vitest';
import { ConfigError, ErrorCode, SwitchboardError } from '../errors.js';
import { mcpErrorResponse, statusOf, toApiError } from './http-error.js';

test('each error code has its HTTP status', () => {
  expect(statusOf(ErrorCode.InvalidArgument)).toBe(400);
  expect(statusOf(ErrorCode.ConfigInvalid)).toBe(400);
  expect(statusOf(ErrorCode.Unauthorized)).toBe(401);
  expect(statusOf(ErrorCode.Forbidden)).toBe(403);
  expect(statusOf(ErrorCode.PolicyViolation)).toBe(403);
  expect(statusOf(ErrorCode.ServerNotFound)).toBe(404);
  expect(statusOf(ErrorCode.ToolNotFound)).toBe(404);
  expect(statusOf(ErrorCode.AlreadyExists)).toBe(409);
  expect(statusOf(ErrorCode.PayloadTooLarge)).toBe(413);
  expect(statusOf(ErrorCode.LimitExceeded)).toBe(429);
  expect(statusOf(ErrorCode.ServerDisconnected)).toBe(502);
  expect(statusOf(ErrorCode.ServerRequestFailed)).toBe(502);
  expect(statusOf(ErrorCode.RequestTimeout)).toBe(504);
  expect(statusOf(ErrorCode.Unavailable)).toBe(503);
  expect(statusOf(ErrorCode.Internal)).toBe(500);
});

test('the /api body carries code, message, server, hint, config issues and policy rules', () => {
  expect(toApiError(new SwitchboardError(ErrorCode.ServerDisconnected, 'down', { server: 'gh', hint: 'wait' }))).toEqual({
    status: 502,
    body: { error: { code: 'SERVER_DISCONNECTED', message: 'down', server: 'gh', hint: 'wait' } },
  });
  const config = toApiError(new ConfigError([{ path: 'servers.x.url', message: 'Invalid URL' }]));
  expect(config.body.error.issues).toEqual([{ path: 'servers.x.url', message: 'Invalid URL' }]);
  const policy = toApiError(new SwitchboardError(ErrorCode.PolicyViolation, 'refused', { details: { rules: ['stdio', 'address'] } }));
  expect(policy).toMatchObject({ status: 403, body: { error: { rules: ['stdio', 'address'] } } });
});

test('a foreign error becomes a 500 that does not repeat its text (it may hold anything)', () => {
  expect(toApiError(new Error('password=hunter2'))).toEqual({ status: 500, body: { error: { code: 'INTERNAL', message: 'internal error (see the gateway log)' } } });
});

test('/mcp refusals are JSON-RPC errors with the code in data, and 401 carries a Bearer challenge', async () => {
  const response = mcpErrorResponse(new SwitchboardError(ErrorCode.Unauthorized, 'an API token is required'));
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe('Bearer realm="switchboard"');
  expect(await response.json()).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: 'an API token is required', data: { code: 'UNAUTHORIZED' } }, id: null });
});

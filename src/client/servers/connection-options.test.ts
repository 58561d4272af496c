import { describe, expect, test } from 'vitest';
import type { StdioServerSpec } from '../../config/server-spec.js';
import { StartLimiter } from '../../connection/start-limiter.js';
import { noopLogger } from '../../logger.js';
import { connectionOptionsFor } from './connection-options.js';

const spec: StdioServerSpec = { type: 'stdio', name: 'fs', enabled: true, command: 'node', args: [], env: {}, inheritEnv: [], protocol: 'auto', startupTimeoutMs: 1_000, callTimeoutMs: 1_000 };

describe('connectionOptionsFor', () => {
  test('hands down each connection option by name, and none of the client’s own', () => {
    const roots = async () => [];
    const fetch: typeof globalThis.fetch = (...args) => globalThis.fetch(...args);
    const options = connectionOptionsFor({ clientInfo: { name: 'app', version: '1' }, roots, fetch, leanRequests: false, validateArguments: false, retryDelayMs: 5, drainTimeoutMs: 1, cacheMaxBytes: 10 }, spec, noopLogger, undefined);
    expect(options).toEqual({ logger: noopLogger, clientInfo: { name: 'app', version: '1' }, roots, fetch, leanRequests: false });
  });

  test('the client’s start limiter, then the per-server options over the shared ones', () => {
    const limiter = new StartLimiter(2);
    const own = new StartLimiter(1);
    const seen: string[] = [];
    const options = connectionOptionsFor({ leanRequests: true, connectionOptions: (server) => (seen.push(server.name), { leanRequests: false, startLimiter: own }) }, spec, noopLogger, limiter);
    expect(seen).toEqual(['fs']);
    expect(options).toEqual({ logger: noopLogger, leanRequests: false, startLimiter: own });
    expect(connectionOptionsFor({}, spec, noopLogger, limiter).startLimiter).toBe(limiter);
  });
});

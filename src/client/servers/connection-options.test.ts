import { describe, expect, test } from 'vitest';
import type { StdioServerSpec } from '../../config/server-spec.js';
import { StartLimiter } from '../../connection/start-limiter.js';
import { noopLogger } from '../../logger.js';
import { DEFAULT_MAX_RETRY_DELAY_MS, DEFAULT_RETRY_DELAY_MS } from '../multi-server-client-options.js';
import { connectionOptionsFor } from './connection-options.js';

const spec: StdioServerSpec = { type: 'stdio', name: 'fs', enabled: true, command: 'node', args: [], env: {}, inheritEnv: [], protocol: 'auto', startupTimeoutMs: 1_000, callTimeoutMs: 1_000 };

describe('connectionOptionsFor', () => {
  test('hands down each connection option by name, and none of the client’s own', () => {
    const roots = async () => [];
    const fetch: typeof globalThis.fetch = (...args) => globalThis.fetch(...args);
    const options = connectionOptionsFor({ clientInfo: { name: 'app', version: '1' }, roots, fetch, leanRequests: false, validateArguments: false, retryDelayMs: 5, drainTimeoutMs: 1, cacheMaxBytes: 10 }, spec, noopLogger, undefined, true);
    expect(options).toEqual({ logger: noopLogger, clientInfo: { name: 'app', version: '1' }, roots, fetch, leanRequests: false, startRetry: { delayMs: 5, maxDelayMs: DEFAULT_MAX_RETRY_DELAY_MS, armed: true } });
  });

  test('the client’s start limiter, then the per-server options over the shared ones', () => {
    const limiter = new StartLimiter(2);
    const own = new StartLimiter(1);
    const seen: string[] = [];
    const options = connectionOptionsFor({ leanRequests: true, connectionOptions: (server) => (seen.push(server.name), { leanRequests: false, startLimiter: own }) }, spec, noopLogger, limiter, true);
    expect(seen).toEqual(['fs']);
    expect(options).toEqual({ logger: noopLogger, leanRequests: false, startLimiter: own, startRetry: { delayMs: DEFAULT_RETRY_DELAY_MS, maxDelayMs: DEFAULT_MAX_RETRY_DELAY_MS, armed: true } });
    expect(connectionOptionsFor({}, spec, noopLogger, limiter, true).startLimiter).toBe(limiter);
  });

  test('the connection retries a failed start: held until the client has started, none with retryFailedServers: false', () => {
    expect(connectionOptionsFor({ retryDelayMs: 10, maxRetryDelayMs: 40 }, spec, noopLogger, undefined, false).startRetry).toEqual({ delayMs: 10, maxDelayMs: 40, armed: false });
    expect(connectionOptionsFor({ retryFailedServers: false }, spec, noopLogger, undefined, true).startRetry).toBeUndefined();
    const own = { delayMs: 1, maxDelayMs: 2 };
    expect(connectionOptionsFor({ connectionOptions: () => ({ startRetry: own }) }, spec, noopLogger, undefined, true).startRetry).toBe(own);
  });
});

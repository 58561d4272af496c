import { describe, expect, test } from 'vitest';
import { ConfigError } from '../errors.js';
import { normalizeConfig } from './normalize-config.js';

const base = '/srv/config';
const normalize = (raw: unknown, env: Record<string, string> = {}) => normalizeConfig(raw, { baseDir: base, env });

function issuesOf(raw: unknown, env: Record<string, string> = {}): string[] {
  try {
    normalize(raw, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map((issue) => `${issue.path}: ${issue.message}${issue.hint === undefined ? '' : ` (${issue.hint})`}`);
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('normalizeConfig: shapes', () => {
  test('Claude Desktop mcpServers with command/args/env', () => {
    const { config, warnings } = normalize({ mcpServers: { fs: { command: 'npx', args: ['-y', 'pkg', 3], env: { A: 'x', N: 5 } } } });
    expect(warnings).toEqual([]);
    expect(config).toEqual({
      naming: 'on-conflict',
      onServerError: 'skip',
      servers: [{ name: 'fs', enabled: true, startupTimeoutMs: 10_000, callTimeoutMs: 60_000, type: 'stdio', command: 'npx', args: ['-y', 'pkg', '3'], env: { A: 'x', N: '5' }, cwd: base, inheritEnv: [], protocol: 'legacy', firstStartTimeoutMs: 60_000 }],
    });
  });

  test('VS Code servers with type, url and headers; top-level options', () => {
    const { config } = normalize({ servers: { gh: { type: 'http', url: 'https://api.example.com/mcp', headers: { 'X-Key': 'k' } } }, naming: 'prefix', onServerError: 'throw' });
    expect(config.naming).toBe('prefix');
    expect(config.onServerError).toBe('throw');
    expect(config.servers[0]).toMatchObject({ type: 'http', url: 'https://api.example.com/mcp', headers: { 'X-Key': 'k' }, transport: 'http', protocol: 'auto' });
  });

  test('path detection, durations, apiKey and ${VAR}', () => {
    const { config } = normalize(
      {
        mcpServers: {
          py: { path: 'server.py --v', timeout: '500ms', callTimeout: 2, cwd: 'work' },
          remote: { path: 'https://h/sse', transport: 'sse', apiKey: '${TOKEN}' },
          keyed: { command: 'srv', apiKey: 'abc', apiKeyEnv: 'SRV_KEY', env: { HOME_DIR: '${HOME:-/none}' } },
          here: { path: '${configDir}/x.mjs' },
        },
      },
      { TOKEN: 'tok123' },
    );
    const [py, remote, keyed, here] = config.servers;
    expect(py).toMatchObject({ type: 'stdio', command: 'python3', args: ['/srv/config/server.py', '--v'], startupTimeoutMs: 500, callTimeoutMs: 2000, cwd: '/srv/config/work' });
    expect(remote).toMatchObject({ type: 'http', transport: 'sse', headers: { Authorization: 'Bearer tok123' } });
    expect(keyed).toMatchObject({ env: { SRV_KEY: 'abc', HOME_DIR: '/none' } });
    expect(here).toMatchObject({ args: ['/srv/config/x.mjs'] });
  });

  test('disabled servers and unknown keys are warnings, with hints', () => {
    const { config, warnings } = normalize({ extra: 1, mcpServers: { a: { command: 'x', disabled: true, endpoint: 'http://x' } } });
    expect(config.servers[0]?.enabled).toBe(false);
    expect(warnings).toEqual([
      { path: 'extra', message: 'unknown option, ignored' },
      { path: 'mcpServers.a.endpoint', message: 'unknown key, ignored', hint: 'use `url`' },
      { path: 'mcpServers.a', message: 'disabled, not started' },
    ]);
  });

  test('protocol modes', () => {
    const { config } = normalize({ mcpServers: { a: { command: 'x', protocol: 'auto' }, b: { url: 'http://h/mcp', protocol: '2026-07-28' }, c: { url: 'http://h/mcp', protocol: 'legacy' } } });
    expect(config.servers.map((spec) => spec.protocol)).toEqual(['auto', { pin: '2026-07-28' }, 'legacy']);
  });
});

describe('normalizeConfig: every mistake is reported at once', () => {
  test('a file with many problems', () => {
    const issues = issuesOf(
      {
        naming: 'sometimes',
        mcpServers: {
          nothing: {},
          both: { command: 'x', url: 'http://h' },
          badUrl: { url: 'not a url' },
          ftp: { url: 'ftp://h/x' },
          types: { command: 5, args: 'a b', env: { A: {} } },
          dur: { command: 'x', timeout: 'soon', callTimeout: 0 },
          key: { command: 'x', apiKey: 'secret-value-123' },
          auth: { url: 'http://h', apiKey: 'k', headers: { authorization: 'Bearer x' } },
          transport: { url: 'http://h', transport: 'stdio' },
          stdioHttp: { command: 'x', transport: 'sse' },
          missingVar: { url: '${NOT_SET}/mcp' },
          proto: { command: 'x', protocol: 'newest' },
          prefix: { command: 'x', prefix: 'has space' },
          list: 'not an object',
        },
      },
      {},
    );
    expect(issues).toEqual([
      'naming: must be one of "on-conflict", "prefix", "none"',
      'mcpServers.nothing: says nothing about how to reach the server (add `path`, `command` (with `args`) or `url`)',
      'mcpServers.both: has both `command` and `url` (keep exactly one of them)',
      'mcpServers.badUrl.url: is not a valid URL (write it in full, e.g. https://example.com/mcp)',
      'mcpServers.ftp.url: uses ftp: which is not supported (use http:// or https://)',
      'mcpServers.types.command: expected string, received number',
      'mcpServers.types.args: expected array, received string',
      'mcpServers.types.env.A: expected string | number | boolean',
      expect.stringMatching(/^mcpServers\.dur\.timeout: "soon" is not a duration/),
      'mcpServers.dur.callTimeout: must be greater than zero',
      'mcpServers.key.apiKey: a stdio server receives its key through an environment variable, but `apiKeyEnv` is missing (add `apiKeyEnv: NAME_THE_SERVER_READS`)',
      'mcpServers.auth.apiKey: conflicts with an Authorization header (keep either `apiKey` or the header)',
      'mcpServers.transport.transport: is stdio but the server is a URL (use `http` or `sse`, or remove `transport`)',
      'mcpServers.stdioHttp.transport: is sse but the server is started as a process (give `url` for a remote server, or remove `transport`)',
      'mcpServers.missingVar.url: environment variable NOT_SET is not set (set it, or write ${NOT_SET:-default})',
      'mcpServers.proto.protocol: "newest" is not a protocol mode (use `legacy`, `auto` or a revision such as `2026-07-28`)',
      'mcpServers.prefix.prefix: must be 1-32 characters of letters, digits, _ or -',
      'mcpServers.list: must be an object (e.g. `{ "command": "npx", "args": ["-y", "pkg"] }` or `{ "url": "https://…" }`)',
    ]);
  });

  test('no servers, not an object, duplicates across shapes', () => {
    expect(issuesOf({})).toEqual(['mcpServers: no servers configured (add `mcpServers: { name: { path: "…" } }`)']);
    expect(issuesOf([1, 2])).toEqual([': must be an object (write `mcpServers: { name: { command: …, args: [...] } }`)']);
    expect(issuesOf({ mcpServers: { a: { command: 'x' } }, servers: { a: { command: 'y' } } })).toEqual([
      'servers.a: duplicate server name, also defined at mcpServers.a (rename one of them)',
    ]);
  });

  test('secret values never appear in messages', () => {
    const secret = 'sk-live-0123456789';
    let message = '';
    try {
      normalize({ mcpServers: { a: { command: 'x', apiKey: secret, env: { T: { nested: secret } }, headers: { H: 5 } } } });
    } catch (error) {
      message = `${(error as Error).message} ${JSON.stringify((error as ConfigError).issues)}`;
    }
    expect(message).toContain('mcpServers.a');
    expect(message).not.toContain(secret);
  });
});

describe('normalizeConfig: resilience and cache policies', () => {
  test('durations and defaults', () => {
    const { config } = normalize({
      mcpServers: {
        a: { command: 'x', retry: { attempts: 2, backoff: '50ms' }, restart: { attempts: 3, delay: 1 }, healthCheck: { interval: '10s' }, cache: { ttl: '2m', tools: ['search*'] } },
        b: { command: 'x', retry: false, restart: false, healthCheck: false, cache: true },
        c: { command: 'x', cache: { readOnly: true } },
      },
    });
    const [a, b, c] = config.servers;
    expect(a).toMatchObject({
      retry: { attempts: 2, backoffMs: 50, maxBackoffMs: 5_000, onTimeout: false },
      restart: { attempts: 3, delayMs: 1_000, maxDelayMs: 30_000, probeIntervalMs: 60_000 },
      healthCheck: { intervalMs: 10_000, timeoutMs: 5_000, misses: 3 },
      cache: { ttlMs: 120_000, maxEntries: 500, tools: ['search*'], readOnly: false },
    });
    expect(b).toMatchObject({ retry: false, restart: false, healthCheck: false, cache: { ttlMs: 60_000, maxEntries: 500, readOnly: false } });
    expect(b?.cache).not.toHaveProperty('tools');
    expect(c?.cache).toEqual({ ttlMs: 60_000, maxEntries: 500, tools: [], readOnly: true });
    expect(config.servers.every((spec) => spec.protocol === 'legacy')).toBe(true);
  });

  test('mistakes in policies are reported with their path', () => {
    expect(issuesOf({ mcpServers: { a: { command: 'x', retry: { attempts: 0 }, cache: { ttl: 'later' }, healthCheck: { misses: 'three' } } } })).toEqual([
      'mcpServers.a.retry.attempts: Too small: expected number to be >=1',
      'mcpServers.a.healthCheck.misses: expected number, received string',
    ]);
    expect(issuesOf({ mcpServers: { a: { command: 'x', cache: { ttl: 'later' } } } })).toEqual([expect.stringMatching(/^mcpServers\.a\.cache\.ttl: "later" is not a duration/)]);
  });
});

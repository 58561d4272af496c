import { describe, expect, test } from 'vitest';
import { ConfigError, ErrorCode } from '../errors.js';
import { checkNormalizedConfig } from './check-normalized-config.js';
import { normalizeConfig } from './normalize-config.js';

const issuesOf = (config: { servers: unknown[] } & Record<string, unknown>): string[] => {
  try {
    checkNormalizedConfig(config);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).issues.map((issue) => `${issue.path}: ${issue.message}`);
  }
  return [];
};

describe('checkNormalizedConfig', () => {
  test('what normalizeConfig returns passes, as the same object', () => {
    const { config } = normalizeConfig({ mcpServers: { fs: { command: 'node', args: ['server.js'] }, web: { url: 'https://example.com/mcp' } } });
    expect(checkNormalizedConfig(config as unknown as { servers: unknown[] })).toBe(config);
  });

  test('a raw entry in `servers: [...]` is refused, each problem at its path', () => {
    expect(issuesOf({ servers: [{ name: 'fs', command: 'node' }] })).toEqual([
      'servers[0].enabled: must be true or false',
      'servers[0].startupTimeoutMs: must be a positive number of milliseconds',
      'servers[0].callTimeoutMs: must be a positive number of milliseconds',
      'servers[0].protocol: must be legacy, auto or { pin: version }',
      'servers[0].type: must be stdio or http',
    ]);
  });

  test('duplicate names, bad fields of each transport and bad top-level values are named', () => {
    const { config } = normalizeConfig({ mcpServers: { fs: { command: 'node' }, web: { url: 'https://example.com/mcp' } } });
    const [fs, web] = config.servers;
    expect(issuesOf({ naming: 'short', servers: [fs, { ...fs }, { ...web, url: 'not a url', transport: 'ws' }, 'fs'] })).toEqual([
      'naming: must be one of on-conflict, prefix, none',
      'servers[1].name: duplicate server name "fs", also servers[0]',
      'servers[2].url: must be an absolute URL',
      'servers[2].transport: must be auto, http or sse',
      'servers[3]: must be a server spec (an object)',
    ]);
  });

  test('absent naming and onServerError take their defaults', () => {
    const { config } = normalizeConfig({ mcpServers: { fs: { command: 'node' } } });
    const checked = checkNormalizedConfig({ servers: config.servers });
    expect([checked.naming, checked.onServerError]).toEqual(['on-conflict', 'skip']);
  });

  test('the error is CONFIG_INVALID with a hint on what to pass instead', () => {
    expect(() => checkNormalizedConfig({ servers: [{}] })).toThrow(expect.objectContaining({ code: ErrorCode.ConfigInvalid, message: expect.stringContaining('mcpServers') }));
  });
});

test('a spec with unset variables passes: it fails only its own server, at start', () => {
  const { config } = normalizeConfig({ mcpServers: { sink: { command: 'node' }, remote: { url: 'https://${SB_UNSET_HOST_FOR_TEST}/mcp' } } }, { env: {} });
  expect(config.servers.find((spec) => spec.name === 'remote')?.unresolved).toHaveLength(1);
  expect(checkNormalizedConfig(config as unknown as { servers: unknown[] })).toBe(config);
});

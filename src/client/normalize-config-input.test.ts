import { describe, expect, test } from 'vitest';
import { normalizeConfig } from '../config/normalize-config.js';
import { ConfigError, ErrorCode } from '../errors.js';
import { MultiServerClient } from './multi-server-client.js';
import { normalizeConfigInput } from './normalize-config-input.js';

describe('the config a client is given', () => {
  test('a raw entry in `servers: [...]` is refused by connect(), with its path, and nothing starts', async () => {
    const refused = await MultiServerClient.connect({ servers: [{ name: 'fs', command: 'node', args: ['server.js'] }] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as ConfigError).code).toBe(ErrorCode.ConfigInvalid);
    expect((refused as ConfigError).issues.map((issue) => issue.path)).toEqual(['servers[0].enabled', 'servers[0].startupTimeoutMs', 'servers[0].callTimeoutMs', 'servers[0].protocol', 'servers[0].type']);
  });

  test('reconfigure() refuses one too, and keeps the running config', async () => {
    const { config } = normalizeConfig({ mcpServers: { off: { command: 'node', disabled: true } } });
    const client = await MultiServerClient.connect(config);
    try {
      await expect(client.reconfigure({ servers: [{ name: 'fs', type: 'stdio', command: 'node' }] })).rejects.toThrow(ConfigError);
      expect(client.config).toBe(config);
    } finally {
      await client.close();
    }
  });

  test('specs as normalizeConfig returns them pass as they are; a file-shaped config is normalized', async () => {
    const { config } = normalizeConfig({ mcpServers: { fs: { command: 'node' } } });
    expect((await normalizeConfigInput(config)).config).toBe(config);
    expect((await normalizeConfigInput({ mcpServers: { fs: { command: 'node' } } })).config.servers.map((spec) => spec.name)).toEqual(['fs']);
  });
});

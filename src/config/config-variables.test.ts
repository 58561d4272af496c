import { homedir } from 'node:os';
import { sep } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError } from '../errors.js';
import { normalizeConfig } from './normalize-config.js';
import type { StdioServerSpec } from './server-spec.js';
import { unresolvedServerError } from './unresolved-server-spec.js';

const baseDir = '/srv/project';

function stdio(spec: unknown): StdioServerSpec {
  if (typeof spec !== 'object' || spec === null || !('type' in spec) || spec.type !== 'stdio') throw new Error('expected a stdio spec');
  return spec as StdioServerSpec;
}

describe('VS Code predefined variables', () => {
  test('${workspaceFolder}, ${workspaceFolderBasename}, ${userHome}, ${pathSeparator} and ${/} resolve; the workspace is the config folder', () => {
    const { config } = normalizeConfig(
      { servers: { fs: { command: 'node', args: ['${workspaceFolder}/server.js', '${workspaceFolderBasename}', '${userHome}', 'a${pathSeparator}b${/}c'] } } },
      { baseDir, env: {} },
    );
    expect(stdio(config.servers[0]).args).toEqual(['/srv/project/server.js', 'project', homedir(), `a${sep}b${sep}c`]);
  });

  test('for .vscode/mcp.json the workspace is the project holding the .vscode folder, as in VS Code', () => {
    const { config } = normalizeConfig({ servers: { fs: { command: 'node', args: ['${workspaceFolder}', '${workspaceFolderBasename}'] } } }, { baseDir: '/srv/project/.vscode', env: {} });
    expect(stdio(config.servers[0]).args).toEqual(['/srv/project', 'project']);
  });

  test('${env:NAME} still reads the environment', () => {
    const { config } = normalizeConfig({ servers: { fs: { command: 'node', args: ['${env:workspaceFolder}'] } } }, { baseDir, env: { workspaceFolder: '/elsewhere' } });
    expect(stdio(config.servers[0]).args).toEqual(['/elsewhere']);
  });
});

describe('VS Code inputs', () => {
  const pasted = {
    inputs: [{ type: 'promptString', id: 'github-token', description: 'GitHub Personal Access Token', password: true }],
    servers: {
      github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${input:github-token}' } },
      memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
    },
  };

  test('a value given by the program is used', () => {
    const { config } = normalizeConfig(pasted, { baseDir, env: {}, inputs: { 'github-token': 'ghp_given' } });
    expect(stdio(config.servers[0]).env).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_given' });
  });

  test('else SWITCHBOARD_INPUT_<ID> from the environment', () => {
    const { config } = normalizeConfig(pasted, { baseDir, env: { SWITCHBOARD_INPUT_GITHUB_TOKEN: 'ghp_env' } });
    expect(stdio(config.servers[0]).env).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_env' });
  });

  test('without a value only the server using it fails, with a message naming the input and where to give it', () => {
    const { config } = normalizeConfig(pasted, { baseDir, env: {} });
    const [github, memory] = config.servers;
    expect(memory?.unresolved).toBeUndefined();
    const error = github === undefined ? undefined : unresolvedServerError(github);
    expect(error?.toJSON()).toEqual({
      code: 'CONFIG_INVALID',
      server: 'github',
      message: 'servers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN: input "github-token" (GitHub Personal Access Token) has no value',
      hint: 'pass --input github-token=VALUE, set SWITCHBOARD_INPUT_GITHUB_TOKEN, or run switchboard in a terminal to be asked',
    });
  });

  test('with onServerError: throw a missing input is a config error', () => {
    expect(() => normalizeConfig({ ...pasted, onServerError: 'throw' }, { baseDir, env: {} })).toThrow(ConfigError);
  });
});

describe('unset variables with onServerError: skip', () => {
  const raw = {
    mcpServers: {
      remote: { url: 'https://${API_HOST}/mcp', headers: { Authorization: 'Bearer ${API_TOKEN}' } },
      local: { command: 'node', args: ['server.js'] },
    },
  };

  test('only the entry that uses one fails; the config loads', () => {
    const { config } = normalizeConfig(raw, { baseDir, env: {} });
    expect(config.servers.map((spec) => spec.name)).toEqual(['remote', 'local']);
    expect(config.servers[1]?.unresolved).toBeUndefined();
    expect(config.servers[0]?.unresolved).toEqual([
      { path: 'mcpServers.remote.url', message: 'environment variable API_HOST is not set', hint: 'set it, or write ${API_HOST:-default}' },
      { path: 'mcpServers.remote.headers.Authorization', message: 'environment variable API_TOKEN is not set', hint: 'set it, or write ${API_TOKEN:-default}' },
    ]);
  });

  test('with onServerError: throw the whole config fails, as before', () => {
    expect(() => normalizeConfig({ ...raw, onServerError: 'throw' }, { baseDir, env: {} })).toThrow(/API_HOST is not set/);
  });
});

describe('cwd', () => {
  test("a file's process servers start in its folder unless `cwd` says otherwise", () => {
    const { config } = normalizeConfig({ mcpServers: { a: { command: 'node', args: ['x.js'] }, b: { command: 'node', cwd: 'sub' } } }, { baseDir, env: {} });
    expect(config.servers.map((spec) => stdio(spec).cwd)).toEqual(['/srv/project', '/srv/project/sub']);
  });
});

describe('first-start deadline', () => {
  test('npx / uvx entries without `timeout` get a longer first start (they may be installing); an explicit `timeout` wins', () => {
    const { config } = normalizeConfig(
      {
        mcpServers: {
          npm: { path: '@modelcontextprotocol/server-memory' },
          uv: { command: 'uvx', args: ['mcp-server-fetch'] },
          exec: { command: 'npm', args: ['exec', 'pkg'] },
          given: { command: 'npx', args: ['-y', 'pkg'], timeout: 5 },
          plain: { command: 'node', args: ['server.js'] },
        },
      },
      { baseDir, env: {} },
    );
    expect(config.servers.map((spec) => [spec.name, spec.startupTimeoutMs, spec.firstStartTimeoutMs])).toEqual([
      ['npm', 10_000, 60_000],
      ['uv', 10_000, 60_000],
      ['exec', 10_000, 60_000],
      ['given', 5_000, undefined],
      ['plain', 10_000, undefined],
    ]);
  });

  test('maxConcurrentStarts is a top-level option (a positive integer)', () => {
    expect(normalizeConfig({ maxConcurrentStarts: 3, mcpServers: { a: { command: 'node' } } }, { baseDir, env: {} }).config.maxConcurrentStarts).toBe(3);
    expect(() => normalizeConfig({ maxConcurrentStarts: 0, mcpServers: { a: { command: 'node' } } }, { baseDir, env: {} })).toThrow(/maxConcurrentStarts/);
  });
});

import { expect, test } from 'vitest';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { RoutedEntry } from '../catalog/routed-catalog.js';
import { serverOfPrefix, unknownToolError, type ServerFacts, type UnknownToolContext } from './unknown-tool.js';

const facts = (name: string, state: ServerFacts['state'], extra: Partial<ServerFacts> = {}): ServerFacts => ({ name, prefix: name, enabled: true, state, lastError: undefined, ...extra });
const tool = (server: string, originalName: string): RoutedEntry => ({ name: `${server}__${originalName}`, server, originalName });

function context(servers: ServerFacts[], tools: RoutedEntry[], offline: RoutedEntry[] = []): UnknownToolContext {
  return {
    owner: (name) => {
      const live = tools.find((item) => item.name === name);
      if (live !== undefined) return { ...live, offline: false };
      const down = offline.find((item) => item.name === name);
      return down === undefined ? undefined : { ...down, offline: true };
    },
    tools,
    servers: new Map(servers.map((server) => [server.name, server])),
  };
}

test('a known name of a failed server says so, with its reason and hint', () => {
  const failure = new SwitchboardError(ErrorCode.ServerStartFailed, 'server "fs" did not complete the handshake within 2 s', { server: 'fs', reason: 'did not complete the handshake within 2 s', hint: 'raise `timeout`' });
  const error = unknownToolError('fs__read_file', context([facts('fs', 'failed', { lastError: failure }), facts('fs2', 'ready')], [tool('fs2', 'read_file')], [tool('fs', 'read_file')]));
  expect(error).toMatchObject({ code: ErrorCode.ServerDisconnected, server: 'fs', hint: 'raise `timeout`', details: { state: 'failed', retryable: true } });
  expect(error.message).toBe('Tool "fs__read_file" belongs to server "fs", which is failed (did not complete the handshake within 2 s). Retrying may help once it is back.');
});

test('an unknown name addressed by prefix to a server that is starting says so', () => {
  const error = unknownToolError('fs__anything', context([facts('fs', 'connecting'), facts('fs2', 'ready')], [tool('fs2', 'anything')]));
  expect(error.message).toContain('is addressed to server "fs", which is connecting (still starting)');
  expect(error.server).toBe('fs');
});

test('suggestions come only from the server the name or `server` addresses', () => {
  const tools = [tool('fs', 'read_text_file'), tool('fs2', 'read_text_file'), tool('fs2', 'read_txt_files')];
  const servers = [facts('fs', 'ready'), facts('fs2', 'ready')];
  expect(unknownToolError('fs__read_txt_file', context(servers, tools)).details.similar).toEqual(['fs__read_text_file']);
  expect(unknownToolError('read_txt_file', context(servers, tools), 'fs').details.similar).toEqual(['fs__read_text_file']);
  const refused = unknownToolError('fs2__read_text_file', context(servers, tools), 'fs');
  expect(refused.code).toBe(ErrorCode.ToolNotFound);
  expect(refused.message).toContain('on server "fs" ("fs2__read_text_file" is a tool of server "fs2")');
  // No server named: any server's tools may be suggested.
  expect(unknownToolError('read_txt_file', context(servers, tools)).details.similar).toEqual(expect.arrayContaining(['fs__read_text_file', 'fs2__read_text_file']));
});

test('serverOfPrefix takes the longest matching prefix (custom prefixes included)', () => {
  const servers = new Map([facts('fs', 'ready'), facts('fs_two', 'ready'), facts('filesystem', 'ready', { prefix: 'files' })].map((server) => [server.name, server]));
  expect(serverOfPrefix('fs_two__x', servers)).toBe('fs_two');
  expect(serverOfPrefix('fs__x', servers)).toBe('fs');
  expect(serverOfPrefix('files__x', servers)).toBe('filesystem');
  expect(serverOfPrefix('x', servers)).toBeUndefined();
});

test('a server that is not up is explained by its last error\'s `reason` when it has one', () => {
  const failure = new SwitchboardError(ErrorCode.ServerDisconnected, 'server "fs": fetch failed (ECONNREFUSED)', { server: 'fs', reason: 'fetch failed (ECONNREFUSED)' });
  const error = unknownToolError('fs__read_file', context([facts('fs', 'failed', { lastError: failure })], [], [tool('fs', 'read_file')]));
  expect(error.message).toBe('Tool "fs__read_file" belongs to server "fs", which is failed (fetch failed (ECONNREFUSED)). Retrying may help once it is back.');
  expect(error).toMatchObject({ server: 'fs', tool: 'fs__read_file', operation: 'tools/call' });
});

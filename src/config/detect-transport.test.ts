import { homedir } from 'node:os';
import { describe, expect, test } from 'vitest';
import { detectTransport } from './detect-transport.js';

const base = '/srv/config';

describe('detectTransport', () => {
  test('URLs are HTTP', () => {
    expect(detectTransport('https://example.com/mcp', base)).toEqual({ type: 'http', url: 'https://example.com/mcp' });
    expect(detectTransport('http://127.0.0.1:3001/sse', base)).toEqual({ type: 'http', url: 'http://127.0.0.1:3001/sse' });
  });

  test('.py runs with python3, relative to the config folder', () => {
    expect(detectTransport('./servers/x.py --verbose', base)).toEqual({ type: 'stdio', command: 'python3', args: ['/srv/config/servers/x.py', '--verbose'], detectedAs: 'python' });
  });

  test.each(['a.js', 'b.mjs', 'c.cjs'])('%s runs with this node', (file) => {
    expect(detectTransport(file, base)).toEqual({ type: 'stdio', command: process.execPath, args: [`/srv/config/${file}`], detectedAs: 'node' });
  });

  test.each([
    ['@modelcontextprotocol/server-memory', ['-y', '@modelcontextprotocol/server-memory']],
    ['mcp-server-time', ['-y', 'mcp-server-time']],
    ['some-server@1.2.3 --port 3', ['-y', 'some-server@1.2.3', '--port', '3']],
    ['@scope/pkg@latest', ['-y', '@scope/pkg@latest']],
  ])('npm package %s runs with npx -y', (path, args) => {
    expect(detectTransport(path, base)).toEqual({ type: 'stdio', command: 'npx', args, detectedAs: 'npm' });
  });

  test('executable paths and known launchers run as they are', () => {
    expect(detectTransport('/usr/local/bin/server --x', base)).toEqual({ type: 'stdio', command: '/usr/local/bin/server', args: ['--x'], detectedAs: 'executable' });
    expect(detectTransport('./bin/server', base)).toEqual({ type: 'stdio', command: '/srv/config/bin/server', args: [], detectedAs: 'executable' });
    expect(detectTransport('~/bin/server', base)).toMatchObject({ command: `${homedir()}/bin/server` });
    expect(detectTransport('uvx mcp-server-git --repo .', base)).toEqual({ type: 'stdio', command: 'uvx', args: ['mcp-server-git', '--repo', '.'], detectedAs: 'executable' });
    expect(detectTransport('python3 -m server', base)).toMatchObject({ command: 'python3', args: ['-m', 'server'] });
  });

  test('mistakes are explained', () => {
    expect(detectTransport('', base)).toMatchObject({ error: 'is empty' });
    expect(detectTransport('ftp://host/x', base)).toMatchObject({ error: expect.stringContaining('ftp://'), hint: expect.stringContaining('http') });
    expect(detectTransport('server.py "unclosed', base)).toMatchObject({ error: 'unbalanced double quote' });
    expect(detectTransport('Weird Name!', base)).toMatchObject({ error: expect.stringContaining('cannot tell') });
  });
});

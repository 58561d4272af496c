/**
 * `switchboard login` end to end: the built CLI against a real authorization server and protected
 * MCP server. The test plays the person's browser: it reads the URL the CLI prints, follows it to the
 * authorization server (which approves at once) and on to the CLI's loopback redirect. Then `tools`
 * uses the stored tokens, and `logout` forgets them.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { startOAuthProtectedServer, type OAuthFixture } from '../fixtures/servers/oauth-protected-server.mjs';
import { ROOT } from '../helpers/fixtures.js';

const CLI = resolve(ROOT, 'bin/switchboard.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI; `onStderr` sees stderr as it arrives (to act on a printed URL). */
function runCli(args: string[], env: Record<string, string>, onStderr?: (text: string) => void, cwd?: string): Promise<Run> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'], ...(cwd === undefined ? {} : { cwd }) });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      onStderr?.(stderr);
    });
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr });
    });
  });
}

let fixture: OAuthFixture | undefined;
let directory: string | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  directory = undefined;
});

test('login stores encrypted tokens that tools then uses; logout forgets them', async () => {
  fixture = await startOAuthProtectedServer();
  directory = await mkdtemp(join(tmpdir(), 'switchboard-login-'));
  const config = join(directory, 'switchboard.json');
  await writeFile(config, JSON.stringify({ mcpServers: { remote: { url: fixture.url } } }));
  const env = { SWITCHBOARD_HOME: join(directory, 'home'), SWITCHBOARD_SECRET_KEY: '' };

  let browsed: Promise<number> | undefined;
  const login = await runCli(['login', 'remote', '--config', config, '--no-browser'], env, (stderr) => {
    const url = /^\s+(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(stderr)?.[1];
    if (url === undefined || browsed !== undefined) return;
    // The browser: the authorization server approves and redirects to the CLI's loopback server.
    browsed = (async () => {
      const approval = await fetch(url, { redirect: 'manual' });
      const location = approval.headers.get('location') ?? '';
      expect(location).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/);
      const page = await fetch(location);
      await page.text();
      return page.status;
    })();
  });
  expect(login.stderr).toContain('To log in to "remote", open:');
  expect(login.code, login.stderr).toBe(0);
  expect(await browsed).toBe(200);
  expect(login.stdout).toMatch(/logged in to "remote" \(scope: mcp:read offline_access, refreshable, expires in 60 min\)/);
  expect((await stat(join(directory, 'home', 'secret.key'))).mode & 0o777).toBe(0o600);
  expect((await stat(join(directory, 'home', 'oauth'))).mode & 0o077).toBe(0);

  const tools = await runCli(['tools', '--config', config, '--json'], env);
  expect(tools.code, tools.stderr).toBe(0);
  const listed = JSON.parse(tools.stdout) as { servers: Array<{ state: string }>; tools: Array<{ name: string }> };
  expect(listed.servers[0]?.state).toBe('ready');
  expect(listed.tools.map((tool) => tool.name).sort()).toEqual(['admin_action', 'whoami']);
  expect(fixture.log.authorizations).toHaveLength(1);

  const logout = await runCli(['logout', 'remote', '--config', config], env);
  expect(logout.code).toBe(0);
  const after = await runCli(['tools', '--config', config, '--json'], env);
  expect(after.code).toBe(1);
  const failed = JSON.parse(after.stdout) as { servers: Array<{ state: string; error?: { code: string; hint?: string } }> };
  expect(failed.servers[0]).toMatchObject({ state: 'failed', error: { code: 'SERVER_UNAUTHORIZED', hint: 'run: switchboard login remote' } });

  const output = [login, tools, logout, after].map((run) => run.stdout + run.stderr).join('\n');
  for (const secret of fixture.secrets()) expect(output.includes(secret)).toBe(false);
});

test('login refuses a stdio server and an unknown server with a usage error', async () => {
  directory = await mkdtemp(join(tmpdir(), 'switchboard-login-'));
  const config = join(directory, 'switchboard.json');
  await writeFile(config, JSON.stringify({ mcpServers: { local: { command: 'node', args: ['server.js'] } } }));
  const env = { SWITCHBOARD_HOME: join(directory, 'home') };
  const stdio = await runCli(['login', 'local', '--config', config], env);
  expect(stdio.code).toBe(2);
  expect(stdio.stderr).toContain('login is for remote (URL) servers');
  const unknown = await runCli(['login', 'nope', '--config', config], env);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('unknown server "nope"');
});

test('login --user keeps the tokens in that user\'s registry secrets (encrypted), for the gateway; logout --user forgets them', async () => {
  fixture = await startOAuthProtectedServer();
  directory = await mkdtemp(join(tmpdir(), 'switchboard-login-'));
  const config = join(directory, 'switchboard.json');
  const db = join(directory, 'switchboard.db');
  await writeFile(config, JSON.stringify({ mcpServers: { remote: { url: fixture.url } } }));
  const env = { SWITCHBOARD_HOME: join(directory, 'home'), SWITCHBOARD_SECRET_KEY: '', SWITCHBOARD_DB: '' };
  const { ServerRegistry } = await import('../../src/registry/server-registry.js');
  const { RegistryOAuthTokenStore } = await import('../../src/registry/registry-oauth-token-store.js');
  const openRegistry = () => ServerRegistry.open({ db, keyFile: join(directory ?? '', 'secret.key'), watch: false });
  const setup = await openRegistry();
  await setup.users.add('alice');
  await setup.close();

  let browsed: Promise<number> | undefined;
  const login = await runCli(['login', 'remote', '--user', 'alice', '--db', db, '--config', config, '--no-browser'], env, (stderr) => {
    const url = /^\s+(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(stderr)?.[1];
    if (url === undefined || browsed !== undefined) return;
    browsed = (async () => {
      const approval = await fetch(url, { redirect: 'manual' });
      const page = await fetch(approval.headers.get('location') ?? '');
      await page.text();
      return page.status;
    })();
  });
  expect(login.code, login.stderr).toBe(0);
  expect(await browsed).toBe(200);
  expect(login.stdout).toContain('logged in to "remote" as user "alice"');

  // In the registry, for alice, encrypted; not in the CLI's own token files.
  const key = `${new URL(fixture.url).href} dynamic`;
  const registry = await openRegistry();
  try {
    expect((await new RegistryOAuthTokenStore(registry.userSecrets, 'alice').get(key))?.tokens?.access_token).toBe(fixture.log.issued.accessTokens[0]);
  } finally {
    await registry.close();
  }
  const file = (await import('node:fs/promises')).readFile;
  const dump = (await file(db)).toString('latin1');
  for (const secret of fixture.secrets()) expect(dump.includes(secret)).toBe(false);
  await expect(stat(join(directory, 'home', 'oauth'))).rejects.toMatchObject({ code: 'ENOENT' });

  // Without --config, the config file `serve` would read here (its servers are alice's too).
  const logout = await runCli(['logout', 'remote', '--user', 'alice', '--db', db], env, undefined, directory);
  expect(logout.code, logout.stderr).toBe(0);
  expect(logout.stdout).toContain('forgot the OAuth tokens of "remote" for user "alice"');
  const after = await openRegistry();
  try {
    expect(await new RegistryOAuthTokenStore(after.userSecrets, 'alice').get(key)).toBeUndefined();
  } finally {
    await after.close();
  }

  // Mistakes: --db without --user, an unknown user, a server the user does not have.
  const noUser = await runCli(['login', 'remote', '--db', db, '--config', config], env);
  expect(noUser.code).toBe(2);
  expect(noUser.stderr).toContain('add --user NAME');
  const nobody = await runCli(['login', 'remote', '--user', 'nobody', '--db', db, '--config', config, '--no-browser'], env);
  expect(nobody.code).not.toBe(0);
  expect(nobody.stderr).toMatch(/nobody/);
  expect(nobody.stderr).not.toMatch(/\n\s+at /);
  const noServer = await runCli(['login', 'elsewhere', '--user', 'alice', '--db', db, '--no-browser'], env);
  expect(noServer.code).toBe(2);
  expect(noServer.stderr).toContain('user "alice" has no server "elsewhere"');
});

/**
 * `switchboard oauth-clients list|add|remove` with the built CLI on a real SQLite registry: the
 * built-in CLI and dashboard clients are listed, an administrator's client is added with exact
 * redirect URIs and removed again; bad input gets a clear message and no stack trace.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'sb-oauth-clients-'));
const db = join(dir, 'registry.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ids = async (): Promise<string[]> => {
  const listed = await runCli(['oauth-clients', 'list', '--db', db, '--json', '--public-url', 'https://mcp.example.com'], { cwd: dir });
  expect(listed.code, listed.stderr).toBe(0);
  const clients = (JSON.parse(listed.stdout) as { clients: Array<{ clientId: string; redirectUris: string[] }> }).clients;
  expect(clients.find((client) => client.clientId === 'switchboard-dashboard')?.redirectUris).toEqual(['https://mcp.example.com/']);
  return clients.map((client) => client.clientId);
};

test('lists the built-in clients, adds and removes an administrator\'s client', async () => {
  expect(await ids()).toEqual(['switchboard-cli', 'switchboard-dashboard']);
  const added = await runCli(['oauth-clients', 'add', 'acme-portal', '--redirect-uri', 'https://portal.acme.example/cb', '--name', 'Acme portal', '--db', db], { cwd: dir });
  expect(added.code, added.stderr).toBe(0);
  expect(added.stdout).toContain('added OAuth client "acme-portal"');
  expect(await ids()).toEqual(['switchboard-cli', 'switchboard-dashboard', 'acme-portal']);
  const removed = await runCli(['oauth-clients', 'remove', 'acme-portal', '--db', db], { cwd: dir });
  expect(removed.code, removed.stderr).toBe(0);
  expect(await ids()).toEqual(['switchboard-cli', 'switchboard-dashboard']);
}, 60_000);

test('bad input: a plain-http redirect off loopback, a built-in id, an unknown client', async () => {
  const insecure = await runCli(['oauth-clients', 'add', 'acme', '--redirect-uri', 'http://portal.acme.example/cb', '--db', db], { cwd: dir });
  expect(insecure.code).not.toBe(0);
  expect(insecure.stderr).toMatch(/client "acme": /);
  const builtIn = await runCli(['oauth-clients', 'remove', 'switchboard-cli', '--db', db], { cwd: dir });
  expect(builtIn.stderr).toContain('is a built-in client');
  const unknown = await runCli(['oauth-clients', 'remove', 'nobody-here', '--db', db], { cwd: dir });
  expect(unknown.stderr).toContain('there is no pre-registered client "nobody-here"');
  for (const run of [insecure, builtIn, unknown]) expect(run.stderr).not.toMatch(/\n\s+at /);
}, 60_000);

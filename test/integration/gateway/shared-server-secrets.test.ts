/**
 * Issue 14, finding 4: the secrets of servers a tenant does not own stay with the administrator.
 * Shared servers that fail to start (a loopback URL that refuses connections, with `user:password`
 * and `?api_key=`; a command with `--admin-token=…` that writes its arguments to stderr and exits; a
 * program path that does not exist)
 * and a tenant's instance of a template with hidden arguments and env: what the tenant reads —
 * `/api/servers`, `/api/events`, MCP tools/list and tools/call — carries no URL credential, query
 * secret, argument, environment value or stderr of them. The administrator still sees the detail;
 * the gateway's log lines never carry the URL's credentials.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Logger, LogFields } from '../../../src/logger.js';
import { ECHO_ARGS_SERVER, FAULT_SERVER, freePort } from '../../helpers/fixtures.js';
import { connectV2, startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { openEventStream } from '../../helpers/event-stream.js';
import { descendantsOf, waitFor } from '../../helpers/processes.js';

const PASSWORD = 'pw-shared-8d2f61';
const API_KEY = 'key-shared-41b7c9';
const ADMIN_TOKEN = 'admintoken-shared-93ce02';
const TEMPLATE_TOKEN = 'tpltoken-hidden-7a5148';
const TEMPLATE_ENV = 'tplenv-hidden-2b90d3';
const REGISTRY_TOKEN = 'regtoken-shared-55e0aa';
/** A shared server's program path (a path on the gateway host is the administrator's to know). */
const HIDDEN_COMMAND = '/opt/admin-only-9f3c/bin/corp-mcp';
const SECRETS = [PASSWORD, API_KEY, ADMIN_TOKEN, TEMPLATE_TOKEN, TEMPLATE_ENV, REGISTRY_TOKEN, HIDDEN_COMMAND];
const WAIT_MS = 15_000;

const logLines: string[] = [];
function capturingLogger(bound: LogFields = {}): Logger {
  const write = (level: string) => (message: string, fields?: LogFields) => logLines.push(JSON.stringify({ level, message, ...bound, ...fields }));
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error'), child: (more) => capturingLogger({ ...bound, ...more }), isDebugEnabled: () => true };
}

let gateway: TestGateway;
let markerDir: string;
let tenant: Awaited<ReturnType<TestGateway['addUser']>>;

beforeAll(async () => {
  const closedPort = await freePort();
  markerDir = mkdtempSync(join(tmpdir(), 'sb-marker-'));
  gateway = await startTestGateway({
    logger: capturingLogger(),
    servers: {
      shared_url: { url: `http://admin:${PASSWORD}@127.0.0.1:${closedPort}/mcp?api_key=${API_KEY}`, timeout: '3s' },
      shared_cmd: { command: process.execPath, args: [ECHO_ARGS_SERVER, `--admin-token=${ADMIN_TOKEN}`] },
      shared_path: { command: HIDDEN_COMMAND, args: ['--serve'] },
      // Up at first; once killed, every restart exits (with the command line in the hint).
      shared_dies: { command: process.execPath, args: [FAULT_SERVER, '--mode', 'fail-after-first', '--marker', join(markerDir, 'marker'), `--admin-token=${ADMIN_TOKEN}`], include: ['echo', 'die'], restart: { attempts: 2, delay: '50ms', maxDelay: '100ms', probeInterval: '60s' } },
    },
  });
  await gateway.registry.templates.add('hidden', {
    command: process.execPath,
    args: [ECHO_ARGS_SERVER, `--admin-token=${TEMPLATE_TOKEN}`, '--echo-env', 'HIDDEN_ENV', '{{label}}'],
    env: { HIDDEN_ENV: TEMPLATE_ENV },
    parameters: [{ name: 'label', type: 'string', pattern: '[a-z]{1,10}' }],
  });
  // A shared server of the registry (no owner), not of the config file.
  await gateway.registry.servers.add(null, 'reg_shared', { command: process.execPath, args: [ECHO_ARGS_SERVER, `--token=${REGISTRY_TOKEN}`] });
  tenant = await gateway.addUser('tenant');
}, 30_000);

afterAll(async () => {
  await gateway?.close();
  if (markerDir !== undefined) rmSync(markerDir, { recursive: true, force: true });
  await waitFor(() => descendantsOf(process.pid).every((child) => !child.cmdline.includes(ECHO_ARGS_SERVER) && !child.cmdline.includes(FAULT_SERVER)), 5_000, 'the servers to exit');
});

async function tenantStatus(name: string): Promise<{ state: string; error?: { message: string; hint?: string } } | undefined> {
  const { servers } = (await (await gateway.api('/api/servers', { token: tenant.token })).json()) as { servers: Array<{ name: string; state: string; error?: { message: string; hint?: string } }> };
  return servers.find((server) => server.name === name);
}

function expectNoSecret(texts: readonly string[], where: string): void {
  for (const text of texts) for (const secret of SECRETS) expect(text, `${where} carries ${secret}`).not.toContain(secret);
}

describe('a tenant reads nothing secret of servers they do not own', () => {
  test('/api/servers, /api/events, tools/list and tools/call', async () => {
    const seen: string[] = [];
    const events = await openEventStream(gateway.url, tenant.token);
    try {
      // Failures while the stream is open: the shared ones tried again, the template instance added.
      await gateway.running.gateway.pool.withClient(tenant.user, async (client) => {
        await client.retryServer('shared_cmd');
        await client.retryServer('shared_url');
        await client.retryServer('reg_shared');
      });
      const added = await gateway.api('/api/servers', { token: tenant.token, body: { name: 'mine', entry: { template: 'hidden', parameters: { label: 'abc' } } } });
      seen.push(await added.text());
      expect(added.status).toBe(201);
      await waitFor(() => ['shared_cmd', 'shared_url', 'reg_shared', 'mine'].every((name) => events.seen.some((item) => item.event === 'server-state-change' && item.data.server === name && item.data.to === 'failed')), WAIT_MS, 'the four failures on /api/events');

      const listed = await gateway.api('/api/servers', { token: tenant.token });
      const listedText = await listed.text();
      seen.push(listedText);
      const servers = (JSON.parse(listedText) as { servers: Array<{ name: string; state: string; error?: { code: string; message: string; hint?: string; stderr?: string } }> }).servers;
      const byName = new Map(servers.map((server) => [server.name, server]));
      for (const name of ['shared_cmd', 'shared_url', 'reg_shared', 'mine']) {
        const error = byName.get(name)?.error;
        expect(byName.get(name)?.state, name).toBe('failed');
        // The tenant still learns that and roughly why it failed, and whom to ask.
        expect(error?.code, name).toMatch(/^SERVER_/);
        expect(error?.message, name).toContain(`server "${name}"`);
        expect(error?.stderr, name).toBeUndefined();
      }
      expect(byName.get('shared_cmd')?.error?.message).toMatch(/exited with code 1/);

      // A login to the shared URL server fails (nothing listens): the answer names no credential of it.
      const login = await gateway.api('/api/servers/shared_url/login', { token: tenant.token, method: 'POST' });
      const loginText = await login.text();
      expect(login.status, loginText).toBeGreaterThanOrEqual(400);
      seen.push(loginText);

      const client = await connectV2(gateway.mcpUrl, tenant.token, 'legacy');
      try {
        const listed = await client.listTools();
        seen.push(JSON.stringify(listed));
        // Names follow the naming contract: prefixed while another server's tools are unknown.
        const nameOf = (tool: string): string => listed.tools.find((entry) => entry.name === tool || entry.name === `shared_dies__${tool}`)?.name ?? tool;
        // A call that kills the shared server, whose restart fails: the next call's error says so, without secrets.
        seen.push(JSON.stringify(await client.callTool({ name: nameOf('echo'), arguments: { message: 'hi' } })));
        seen.push(JSON.stringify(await client.callTool({ name: nameOf('die'), arguments: {} }).catch((error: unknown) => String(error))));
        await waitFor(async () => (await tenantStatus('shared_dies'))?.state === 'failed', WAIT_MS, 'the shared server to fail its restart');
        const failedCall = JSON.stringify(await client.callTool({ name: nameOf('echo'), arguments: { message: 'again' } }).catch((error: unknown) => String(error)));
        expect(failedCall).toMatch(/shared_dies/);
        seen.push(failedCall, JSON.stringify(await tenantStatus('shared_dies')));
      } finally {
        await client.close();
      }
    } finally {
      await events.close();
    }
    seen.push(...events.seen.map((item) => item.raw));
    expect(events.seen.some((item) => item.event === 'server-log')).toBe(false);
    expectNoSecret(seen, 'what the tenant read');
  });

  test('a shared server whose program is missing: the tenant learns that it failed, not its path', async () => {
    await waitFor(async () => (await tenantStatus('shared_path'))?.state === 'failed', WAIT_MS, 'the shared server without its program to fail');
    const status = await tenantStatus('shared_path');
    expect(status?.error?.message).toContain('server "shared_path"');
    expectNoSecret([JSON.stringify(status)], 'the failed shared server');
  });

  test('the administrator sees the detail; no log line carries the URL\'s credentials', async () => {
    const adminText = await (await gateway.api('/api/servers')).text();
    const admin = (JSON.parse(adminText) as { servers: Array<{ name: string; error?: { message: string; hint?: string; stderr?: string } }> }).servers;
    const shared = admin.find((server) => server.name === 'shared_cmd')?.error;
    expect(shared?.hint).toContain(`--admin-token=${ADMIN_TOKEN}`);
    expect(shared?.stderr).toContain(ADMIN_TOKEN);
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) {
      expect(line).not.toContain(PASSWORD);
      expect(line).not.toContain(API_KEY);
    }
  });
});

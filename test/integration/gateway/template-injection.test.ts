/**
 * Issue 14, finding 2: a tenant must not read the gateway's environment through a template. Each
 * parameter value is fine on its own (`$`, `{VAR:-x}`), but two adjacent placeholders used to join
 * them into `${VAR:-x}`, which was then expanded from the gateway's environment and came back in the
 * start-up error's stderr. Performed through the real gateway: the administrator defines the
 * template, the tenant instantiates it over the API, the hostile fixture writes its arguments to
 * stderr and exits; the secret must appear nowhere the tenant can read.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ECHO_ARGS_SERVER } from '../../helpers/fixtures.js';
import { connectV2, startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { openEventStream } from '../../helpers/event-stream.js';
import { descendantsOf, waitFor } from '../../helpers/processes.js';

const SECRET_NAME = 'SB_TEST_TEMPLATE_HOST_SECRET';
const SECRET = 'host-secret-value-5c1e9a';
const WAIT_MS = 10_000;

let gateway: TestGateway;
let tenant: Awaited<ReturnType<TestGateway['addUser']>>;

beforeAll(async () => {
  process.env[SECRET_NAME] = SECRET;
  gateway = await startTestGateway();
  await gateway.registry.templates.add('data', {
    command: process.execPath,
    args: [ECHO_ARGS_SERVER, '/data/{{team}}{{folder}}'],
    parameters: [
      { name: 'team', type: 'string' },
      { name: 'folder', type: 'string' },
    ],
  });
  tenant = await gateway.addUser('mallory');
}, 30_000);

afterAll(async () => {
  await gateway?.close();
  delete process.env[SECRET_NAME];
  await waitFor(() => descendantsOf(process.pid).every((child) => !child.cmdline.includes(ECHO_ARGS_SERVER)), 5_000, 'the servers to exit');
});

describe('template parameters are substituted verbatim, never expanded', () => {
  test('adjacent placeholders joined into ${VAR:-x} do not reach the gateway environment', async () => {
    const events = await openEventStream(gateway.url, tenant.token);
    const seenByTenant: string[] = [];
    try {
      const added = await gateway.api('/api/servers', { token: tenant.token, body: { name: 'mine', entry: { template: 'data', parameters: { team: '$', folder: `{${SECRET_NAME}:-x}` } } } });
      const addedText = await added.text();
      seenByTenant.push(addedText);
      expect(added.status, addedText).toBe(201);
      const listed = await gateway.api('/api/servers', { token: tenant.token });
      const listedText = await listed.text();
      seenByTenant.push(listedText);
      const mine = (JSON.parse(listedText) as { servers: Array<{ name: string; state: string; error?: { message: string } }> }).servers.find((server) => server.name === 'mine');
      expect(mine?.state).toBe('failed');
      expect(mine?.error?.message).toMatch(/exited with code 1/);
      await waitFor(() => events.seen.some((item) => item.event === 'server-state-change' && item.data.server === 'mine' && item.data.to === 'failed'), WAIT_MS, 'the failure on /api/events');
      const client = await connectV2(gateway.mcpUrl, tenant.token, 'legacy');
      try {
        seenByTenant.push(JSON.stringify(await client.listTools()));
      } finally {
        await client.close();
      }
    } finally {
      await events.close();
    }
    seenByTenant.push(...events.seen.map((item) => item.raw));
    for (const text of seenByTenant) expect(text).not.toContain(SECRET);
    // The value reached the command line verbatim: it was never expanded.
    const { config } = await gateway.registry.configForUser(tenant.user);
    const spec = config.servers.find((server) => server.name === 'mine');
    expect(spec?.type === 'stdio' ? spec.args : []).toEqual([ECHO_ARGS_SERVER, `/data/\${${SECRET_NAME}:-x}`]);
  });
});

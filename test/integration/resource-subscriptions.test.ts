/**
 * Resource subscriptions of a MultiServerClient, against a real stdio server that keeps its
 * subscriptions per process: they survive a crash and restart, a retry of a server without a
 * restart policy, an HTTP server forgetting the session, and a reconfiguration (unchanged entry:
 * same process; changed entry: a new one);
 * they are counted per subscriber, and the last unsubscribe reaches the server.
 */
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { MultiServerClient } from '../../src/client/multi-server-client.js';
import type { ToolResult } from '../../src/result/tool-result.js';
import { FIXTURES, freePort, startHttpFixture } from '../helpers/fixtures.js';
import { connectForEachTest } from '../helpers/connect-for-each-test.js';
import { nextEvent } from '../helpers/next-event.js';

const SUBSCRIPTION_SERVER = resolve(FIXTURES, 'subscription-server.mjs');
const connect = connectForEachTest();
const entry = (extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [SUBSCRIPTION_SERVER], restart: { delay: '50ms' }, ...extra });

const textOf = (result: ToolResult): string => {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
};

/** Asks the server to say `uri` changed; resolves once the client's subscriber heard of it. */
async function expectUpdate(client: MultiServerClient, uri: string): Promise<void> {
  const heard = nextEvent(client, 'resources-changed', (event) => event.server === 'watch' && event.uri === uri);
  const answer = textOf(await client.callTool('touch', { uri }));
  // "not subscribed" means the server's current session was never (re)subscribed.
  expect(answer).toBe('sent');
  await heard;
}

const pidOf = (client: MultiServerClient): number | undefined => client.status().find((server) => server.name === 'watch')?.pid;

describe('resource subscriptions of a MultiServerClient', () => {
  test('a subscription survives the server being killed and restarted', async () => {
    const client = await connect({ mcpServers: { watch: entry() } });
    expect(await client.subscribeResource('watch://a')).toEqual({ server: 'watch', uri: 'watch://a' });
    await expectUpdate(client, 'watch://a');
    const pid = pidOf(client);
    const back = nextEvent(client, 'tools-changed', (event) => event.reason === 'server-up' && event.server === 'watch');
    process.kill(pid as number, 'SIGKILL');
    await back;
    expect(pidOf(client)).not.toBe(pid);
    await expectUpdate(client, 'watch://a');
    // Only what was subscribed is subscribed again.
    expect(textOf(await client.callTool('subscribed'))).toBe('watch://a');
  });

  test('a server without a restart policy, retried by the client, is subscribed again', async () => {
    const client = await connect({ mcpServers: { watch: entry({ restart: false }) } }, { retryDelayMs: 50 });
    await client.subscribeResource('watch://a');
    const pid = pidOf(client);
    const back = nextEvent(client, 'tools-changed', (event) => event.reason === 'server-up' && event.server === 'watch');
    process.kill(pid as number, 'SIGKILL');
    await back;
    expect(pidOf(client)).not.toBe(pid);
    await expectUpdate(client, 'watch://a');
  });

  test('over HTTP: after the server forgot the session, the new session is subscribed again', async () => {
    const port = await freePort();
    const fixture = await startHttpFixture(process.execPath, [SUBSCRIPTION_SERVER, '--http', String(port)], { port });
    try {
      const client = await connect({ mcpServers: { watch: { url: fixture.url('/mcp'), protocol: 'legacy' } } });
      await client.subscribeResource('watch://a');
      await expectUpdate(client, 'watch://a');
      const back = nextEvent(client, 'tools-changed', (event) => event.reason === 'server-up' && event.server === 'watch');
      await fetch(fixture.url('/control/forget-sessions'), { method: 'POST', signal: AbortSignal.timeout(5_000) });
      // The next request meets a 404: the client initializes a new session (and sends the request again).
      await client.callTool('subscribed');
      await back;
      await expectUpdate(client, 'watch://a');
      await client.close();
    } finally {
      await fixture.close();
    }
  });

  test('reconfigure: an unchanged entry keeps its process and subscription; a changed one is subscribed again on its new process', async () => {
    const client = await connect({ mcpServers: { watch: entry() } });
    await client.subscribeResource('watch://a');
    const pid = pidOf(client);
    expect(await client.reconfigure({ mcpServers: { watch: entry() } })).toMatchObject({ unchanged: ['watch'] });
    expect(pidOf(client)).toBe(pid);
    await expectUpdate(client, 'watch://a');

    expect(await client.reconfigure({ mcpServers: { watch: entry({ args: [SUBSCRIPTION_SERVER, '--name', 'changed'] }) } })).toMatchObject({ restarted: ['watch'] });
    expect(pidOf(client)).not.toBe(pid);
    await expectUpdate(client, 'watch://a');

    // A removed server's subscriptions end with it.
    await client.reconfigure({ mcpServers: {} });
    expect(await client.unsubscribeResource('watch://a', { server: 'watch' })).toBe(false);
  });

  test('subscribers are counted: the server is unsubscribed when the last one leaves', async () => {
    const client = await connect({ mcpServers: { watch: entry() } });
    await Promise.all([client.subscribeResource('watch://a'), client.subscribeResource('watch://a'), client.subscribeResource('watch://b')]);
    expect(await client.unsubscribeResource('watch://a')).toBe(true);
    expect(textOf(await client.callTool('subscribed'))).toBe('watch://a\nwatch://b');
    expect(await client.unsubscribeResource('watch://a')).toBe(true);
    expect(textOf(await client.callTool('subscribed'))).toBe('watch://b');
    expect(await client.unsubscribeResource('watch://a')).toBe(false);
  });
});

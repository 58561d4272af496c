/**
 * What a server that is not ready but still serving (degraded: it missed a health check) keeps
 * offering: the same as a ready one — tools, resources, resource templates — and requests still
 * route to it. One definition of "serving" (src/client/serving.ts) for the whole client.
 */
import { describe, expect, test } from 'vitest';
import type { MultiServerClient } from '../../src/client/multi-server-client.js';
import { ErrorCode, type SwitchboardError } from '../../src/errors.js';
import { KITCHEN_SINK } from '../helpers/fixtures.js';
import { connectForEachTest } from '../helpers/connect-for-each-test.js';
import { nextEvent } from '../helpers/next-event.js';

const connect = connectForEachTest();

/** Freezes the server's process (SIGSTOP) until the client marks it degraded; returns the thaw. */
async function degrade(client: MultiServerClient, server: string): Promise<() => void> {
  const pid = client.connection(server)?.pid;
  if (pid === undefined) throw new Error(`no pid for ${server}`);
  const degraded = nextEvent(client, 'server-state-change', (event) => event.server === server && event.to === 'degraded');
  process.kill(pid, 'SIGSTOP');
  const thaw = (): void => void process.kill(pid, 'SIGCONT');
  try {
    await degraded;
  } catch (error) {
    thaw();
    throw error;
  }
  return thaw;
}

describe('a degraded server still serves', () => {
  // Pings every 200 ms; so many misses (100, at least 20 s) allowed that it stays degraded (no restart) while the test looks.
  const frozenKit = { path: KITCHEN_SINK, healthCheck: { interval: '200ms', timeout: '200ms', misses: 100 } };

  test('its resource templates stay listed, like its tools and resources', async () => {
    const client = await connect({ mcpServers: { kit: frozenKit } });
    const before = { tools: client.listTools().length, resources: client.listResources().length, templates: client.listResourceTemplates() };
    expect(before.templates).toContainEqual(expect.objectContaining({ uriTemplate: 'memo://notes/{id}', server: 'kit' }));
    const thaw = await degrade(client, 'kit');
    try {
      expect(client.status()[0]?.state).toBe('degraded');
      expect(client.listTools().length).toBe(before.tools);
      expect(client.listResources().length).toBe(before.resources);
      expect(client.listResourceTemplates()).toEqual(before.templates);
    } finally {
      thaw();
    }
  });

  test('a URI of its templates still routes to it (the request is sent, and times out on the frozen process)', async () => {
    const client = await connect({ mcpServers: { kit: frozenKit } });
    const thaw = await degrade(client, 'kit');
    try {
      const failure = (await client.readResource('memo://notes/7', { timeoutMs: 300 }).catch((error: unknown) => error)) as SwitchboardError;
      expect(failure.code).toBe(ErrorCode.RequestTimeout);
    } finally {
      thaw();
    }
  });
});

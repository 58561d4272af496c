/**
 * A downstream client's resource subscription through the gateway outlives the upstream: after the
 * upstream server process is killed and restarted, `notifications/resources/updated` still arrives.
 * Completions and instructions come from the owning server through the client too.
 */
import { resolve } from 'node:path';
import type { Client as V2Client } from '@modelcontextprotocol/client';
import { describe, expect, test } from 'vitest';
import { FIXTURES } from '../../helpers/fixtures.js';
import { connectV2, startTestGateway } from '../../helpers/gateway.js';
import { EVENT_TIMEOUT_MS, nextEvent } from '../../helpers/next-event.js';
import { waitFor } from '../../helpers/processes.js';

const SUBSCRIPTION_SERVER = resolve(FIXTURES, 'subscription-server.mjs');

/** Bounded waits for the client's next `notifications/resources/updated` of a URI; `stop()` ends the waits. */
function updatesOf(client: V2Client): { next(uri: string): Promise<void>; stop(): void } {
  const waiting: Array<{ uri: string; resolve: () => void; timer: NodeJS.Timeout }> = [];
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    for (const waiter of waiting.filter((item) => item.uri === notification.params.uri)) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  return {
    next: (uri) =>
      new Promise((resolveUpdate, reject) => {
        const timer = setTimeout(() => reject(new Error(`no notifications/resources/updated for ${uri} within ${EVENT_TIMEOUT_MS} ms`)), EVENT_TIMEOUT_MS);
        waiting.push({ uri, resolve: () => (clearTimeout(timer), resolveUpdate()), timer });
      }),
    stop: () => {
      for (const waiter of waiting.splice(0)) clearTimeout(waiter.timer);
    },
  };
}

const textOf = (result: unknown): string => {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content;
  return content?.[0]?.text ?? '';
};

describe('resource subscriptions through the gateway', () => {
  test('2025 session: a subscription survives an upstream restart', async () => {
    const gateway = await startTestGateway({ servers: { watch: { command: process.execPath, args: [SUBSCRIPTION_SERVER], restart: { delay: '50ms' } } } });
    const lease = await gateway.running.gateway.pool.acquire(gateway.admin);
    const client = await connectV2(gateway.mcpUrl, gateway.adminToken, 'legacy');
    const updates = updatesOf(client);
    try {
      await client.subscribeResource({ uri: 'watch://a' });
      const first = updates.next('watch://a');
      expect(textOf(await client.callTool({ name: 'touch', arguments: { uri: 'watch://a' } }))).toBe('sent');
      await first;

      const pid = lease.client.status().find((server) => server.name === 'watch')?.pid;
      expect(pid).toBeTypeOf('number');
      const back = nextEvent(lease.client, 'tools-changed', (event) => event.reason === 'server-up' && event.server === 'watch');
      process.kill(pid as number, 'SIGKILL');
      await back;
      expect(lease.client.status().find((server) => server.name === 'watch')?.pid).not.toBe(pid);

      // The restarted process has a fresh session: the gateway must have subscribed again.
      const second = updates.next('watch://a');
      expect(textOf(await client.callTool({ name: 'touch', arguments: { uri: 'watch://a' } }))).toBe('sent');
      await second;

      // Unsubscribing downstream (the last subscriber) unsubscribes upstream.
      await client.unsubscribeResource({ uri: 'watch://a' });
      expect(textOf(await client.callTool({ name: 'subscribed', arguments: {} }))).toBe('');
    } finally {
      updates.stop();
      lease.release();
      await client.close();
      await gateway.close();
    }
  });

  test('2026-07-28: a subscriptions/listen stream hears of its resources, also after an upstream restart; closing it unsubscribes upstream', async () => {
    const gateway = await startTestGateway({ servers: { watch: { command: process.execPath, args: [SUBSCRIPTION_SERVER], restart: { delay: '50ms' } } } });
    const lease = await gateway.running.gateway.pool.acquire(gateway.admin);
    const client = await connectV2(gateway.mcpUrl, gateway.adminToken, 'auto');
    const updates = updatesOf(client);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const subscription = await client.listen({ resourceSubscriptions: ['watch://a'] });
      expect(subscription.honoredFilter.resourceSubscriptions).toEqual(['watch://a']);
      expect(textOf(await client.callTool({ name: 'subscribed', arguments: {} }))).toBe('watch://a');
      const first = updates.next('watch://a');
      expect(textOf(await client.callTool({ name: 'touch', arguments: { uri: 'watch://a' } }))).toBe('sent');
      await first;

      const pid = lease.client.status().find((server) => server.name === 'watch')?.pid;
      const back = nextEvent(lease.client, 'tools-changed', (event) => event.reason === 'server-up' && event.server === 'watch');
      process.kill(pid as number, 'SIGKILL');
      await back;
      const second = updates.next('watch://a');
      expect(textOf(await client.callTool({ name: 'touch', arguments: { uri: 'watch://a' } }))).toBe('sent');
      await second;

      await subscription.close();
      await waitFor(async () => textOf(await client.callTool({ name: 'subscribed', arguments: {} })) === '', EVENT_TIMEOUT_MS, 'the upstream to be unsubscribed once the listen stream closed');
    } finally {
      updates.stop();
      lease.release();
      await client.close();
      await gateway.close();
    }
  });

  test('2026-07-28: a listen stream asking for more than 100 resources is refused, saying so', async () => {
    const gateway = await startTestGateway({ servers: { watch: { command: process.execPath, args: [SUBSCRIPTION_SERVER] } } });
    try {
      const uris = Array.from({ length: 101 }, (_, index) => `watch://${index}`);
      const response = await fetch(gateway.mcpUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${gateway.adminToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: uris }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }),
        signal: AbortSignal.timeout(EVENT_TIMEOUT_MS),
      });
      expect(await response.text()).toContain('subscriptions/listen asks for 101 resources; at most 100 are allowed per stream');
    } finally {
      await gateway.close();
    }
  });

  test('2025 session: a subscription survives the user\'s client being replaced (a tenant policy change)', async () => {
    const gateway = await startTestGateway({ servers: { watch: { command: process.execPath, args: [SUBSCRIPTION_SERVER] } } });
    // A tenant: the policy applies to them (not to administrators).
    const { user, token } = await gateway.addUser('carol');
    const lease = await gateway.running.gateway.pool.acquire(user);
    const client = await connectV2(gateway.mcpUrl, token, 'legacy');
    const updates = updatesOf(client);
    try {
      await client.subscribeResource({ uri: 'watch://a' });
      const inner = lease.client.client;
      const pid = lease.client.status()[0]?.pid;
      const replaced = nextEvent(lease.client, 'tools-changed', (event) => event.reason === 'reload');
      // A policy change cannot be applied in place: a new client with new server processes replaces the old one.
      await gateway.registry.setPolicy({ allowAddresses: ['10.0.0.0/8'] });
      await replaced;
      expect(lease.client.client).not.toBe(inner);
      expect(lease.client.status()[0]?.pid).not.toBe(pid);
      const update = updates.next('watch://a');
      expect(textOf(await client.callTool({ name: 'touch', arguments: { uri: 'watch://a' } }))).toBe('sent');
      await update;
    } finally {
      updates.stop();
      lease.release();
      await client.close();
      await gateway.close();
    }
  });

  test('completions and instructions reach the downstream client from the server that owns them', async () => {
    const gateway = await startTestGateway({ servers: { watch: { command: process.execPath, args: [SUBSCRIPTION_SERVER] } } });
    const client = await connectV2(gateway.mcpUrl, gateway.adminToken, 'legacy');
    try {
      expect(client.getInstructions()).toBe('[watch] Touch a subscribed resource to hear of it.');
      const completion = await client.complete({ ref: { type: 'ref/resource', uri: 'watch://item/{id}' }, argument: { name: 'id', value: '12' } });
      expect(completion.completion.values).toEqual(['12', '123']);
    } finally {
      await client.close();
      await gateway.close();
    }
  });
});

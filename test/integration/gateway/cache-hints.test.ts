/**
 * 2026-07-28 cache hints on resources/read through the gateway, with two users of one shared server
 * entry (cache-hint-server.mjs, spoken to on 2026-07-28; each read answers `<process>:<count>`). A
 * `private` result is served again to its own user within its TTL and never to the other user; a
 * `public` one is served to both from one read (the gateway's shared store); `ttlMs: 0` is never
 * reused. (The SDK client under a 2026-07-28 upstream connection reuses a private result within its
 * own connection as well; what matters here is that nothing crosses to the other user.)
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { FIXTURES } from '../../helpers/fixtures.js';
import { connectV2, startTestGateway, type TestGateway } from '../../helpers/gateway.js';

const SERVER = `${FIXTURES}/cache-hint-server.mjs`;

let gateway: TestGateway;
let alice: Client;
let bob: Client;
beforeAll(async () => {
  gateway = await startTestGateway({ servers: { hints: { command: process.execPath, args: [SERVER], protocol: 'auto' } } });
  const [a, b] = await Promise.all([gateway.addUser('alice'), gateway.addUser('bob')]);
  // Both on the 2025 era: an SDK client of the 2026 era honours the hints itself, and this tests the gateway's.
  alice = await connectV2(gateway.mcpUrl, a.token, 'legacy');
  bob = await connectV2(gateway.mcpUrl, b.token, 'legacy');
});
afterAll(async () => {
  await alice?.close();
  await bob?.close();
  await gateway?.close();
});

async function read(client: Client, uri: string): Promise<string> {
  const [item] = (await client.readResource({ uri })).contents;
  return item !== undefined && 'text' in item ? item.text : '';
}

test('a private result is served again to its user only', async () => {
  const first = await read(alice, 'counter://private');
  expect(first).toMatch(/^[0-9a-f]{8}:\d+$/);
  expect(await read(alice, 'counter://private')).toBe(first);
  const bobs = await read(bob, 'counter://private');
  expect(bobs).not.toBe(first);
  expect(await read(bob, 'counter://private')).toBe(bobs);
});

test('a public result is served to both users from one read', async () => {
  const first = await read(alice, 'counter://public');
  expect(await read(bob, 'counter://public')).toBe(first);
});

test('ttlMs 0 is never reused', async () => {
  const first = await read(alice, 'counter://fresh');
  expect(await read(alice, 'counter://fresh')).not.toBe(first);
});

/**
 * The fetch of tenant servers against real sockets on loopback: addresses checked for every
 * connection, pinned against DNS rebinding, redirects re-checked one hop at a time, credentials not
 * carried across origins. Every refused target is refused before a connection is made (no traffic
 * leaves 127.0.0.1).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { ErrorCode, isSwitchboardError } from '../../../src/errors.js';
import { createPinnedFetch, type PinnedFetch } from '../../../src/registry/pinned-fetch.js';
import { startDnsServer, type TestDnsServer } from '../../helpers/dns-server.js';

interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
}

let dns: TestDnsServer;
let first: Server;
let second: Server;
let firstPort = 0;
let secondPort = 0;
const seen: Seen[] = [];
const opened: PinnedFetch[] = [];

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  dns = await startDnsServer({ 'sink.example.test': ['127.0.0.1'], 'internal.example.test': ['10.9.8.7'], 'both.example.test': ['127.0.0.1', '10.9.8.7'] });
  first = createServer((request, response) => {
    seen.push({ path: `first${request.url ?? ''}`, headers: request.headers });
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname === '/loop') {
      response.writeHead(302, { location: '/loop' });
      response.end();
      return;
    }
    const to = url.searchParams.get('to');
    if (to !== null) {
      response.writeHead(Number(url.searchParams.get('status') ?? 302), { location: to.replace('SECOND', String(secondPort)).replace('FIRST', String(firstPort)) });
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(`hello from ${request.method} ${url.pathname}`);
  });
  second = createServer((request, response) => {
    seen.push({ path: `second${request.url ?? ''}`, headers: request.headers });
    response.end('second');
  });
  firstPort = await listen(first);
  secondPort = await listen(second);
});
afterEach(async () => {
  seen.length = 0;
  await Promise.all(opened.splice(0).map((fetch) => fetch.close()));
});
afterAll(async () => {
  await new Promise((resolve) => first.close(resolve));
  await new Promise((resolve) => second.close(resolve));
  await dns.close();
});

async function pinned(allowAddresses: string[], allowHttpHosts: string[] = ['127.0.0.1', 'sink.example.test', 'internal.example.test', 'both.example.test', '127.0.0.2', 'localhost']): Promise<PinnedFetch> {
  const fetch = await createPinnedFetch({ policy: { allowAddresses, allowHttpHosts }, resolveHost: dns.resolver, subject: 'server "t"' });
  opened.push(fetch);
  return fetch;
}

async function refusedRule(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    if (isSwitchboardError(error) && error.code === ErrorCode.PolicyViolation) return error.details.rules;
    throw error;
  }
  throw new Error('the request went through; it should have been refused');
}

test('an allowed host is reached; the response streams through', async () => {
  const { fetch } = await pinned(['127.0.0.1/32']);
  const response = await fetch(`http://sink.example.test:${firstPort}/hello`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
  expect(response.status).toBe(200);
  expect(await response.text()).toBe('hello from POST /hello');
});

test('loopback is refused without an allowance, before any connection', async () => {
  const { fetch } = await pinned([]);
  expect(await refusedRule(fetch(`http://127.0.0.1:${firstPort}/x`))).toEqual(['forbidden-address']);
  expect(await refusedRule(fetch(`http://sink.example.test:${firstPort}/x`))).toEqual(['forbidden-address']);
  expect(await refusedRule(fetch(`http://localhost:${firstPort}/x`))).toEqual(['unresolvable-host']);
  expect(seen).toEqual([]);
});

test('plain http needs an allowed host; other schemes never pass', async () => {
  const { fetch } = await pinned(['loopback'], []);
  expect(await refusedRule(fetch(`http://127.0.0.1:${firstPort}/x`))).toEqual(['https-required']);
  expect(await refusedRule(fetch('http://169.254.169.254/latest/meta-data/'))).toEqual(['https-required', 'forbidden-address']);
  expect(await refusedRule(fetch('file:///etc/passwd'))).toEqual(['url-scheme']);
  expect(seen).toEqual([]);
});

test('a name with any forbidden address is refused, even if another address is fine', async () => {
  const { fetch } = await pinned(['127.0.0.1/32']);
  expect(await refusedRule(fetch(`http://both.example.test:${firstPort}/x`))).toEqual(['forbidden-address']);
  expect(await refusedRule(fetch(`http://internal.example.test:${firstPort}/x`))).toEqual(['forbidden-address']);
  expect(seen).toEqual([]);
});

test('DNS rebinding: the first checked answer is pinned for the life of the fetch', async () => {
  const { fetch } = await pinned(['127.0.0.1/32']);
  const before = dns.queries.get('sink.example.test') ?? 0;
  expect((await fetch(`http://sink.example.test:${firstPort}/one`, { headers: { connection: 'close' } })).status).toBe(200);
  // The attacker's DNS now points the name at an internal address (TTL 0).
  dns.records.set('sink.example.test', ['10.9.8.7']);
  try {
    expect(await (await fetch(`http://sink.example.test:${firstPort}/two`, { headers: { connection: 'close' } })).text()).toBe('hello from GET /two');
    expect(seen.map((request) => request.path)).toEqual(['first/one', 'first/two']);
    // A new fetch (a new client generation) resolves again, and refuses the new answer.
    const fresh = await pinned(['127.0.0.1/32']);
    expect(await refusedRule(fresh.fetch(`http://sink.example.test:${firstPort}/three`))).toEqual(['forbidden-address']);
    expect(seen).toHaveLength(2);
    expect((dns.queries.get('sink.example.test') ?? 0) - before).toBeGreaterThanOrEqual(2);
  } finally {
    dns.records.set('sink.example.test', ['127.0.0.1']);
  }
});

test.each([
  ['a loopback address outside the allowance', 'http://127.0.0.2:SECOND/x'],
  ['the metadata address', 'https://169.254.169.254/latest/meta-data/'],
  ['a private address as IPv4-mapped IPv6', 'https://[::ffff:10.0.0.1]/x'],
  ['a name resolving to a private address', 'http://internal.example.test:SECOND/x'],
  ['a non-http scheme', 'file:///etc/passwd'],
])('a redirect to %s is refused', async (_, target) => {
  const { fetch } = await pinned(['127.0.0.1/32']);
  const rules = await refusedRule(fetch(`http://127.0.0.1:${firstPort}/r?to=${encodeURIComponent(target)}`));
  expect(rules).toEqual([target.startsWith('file:') ? 'url-scheme' : 'forbidden-address']);
  expect(seen.map((request) => request.path.split('?')[0])).toEqual(['first/r']);
});

test('allowed redirects are followed; 303 becomes GET; credentials stay on their origin', async () => {
  const { fetch } = await pinned(['127.0.0.1/32']);
  const same = await fetch(`http://127.0.0.1:${firstPort}/r?status=307&to=${encodeURIComponent('/final')}`, { method: 'POST', body: 'x', headers: { authorization: 'Bearer s3cret', 'x-api-key': 'k' } });
  expect(await same.text()).toBe('hello from POST /final');
  expect(seen[1]?.headers.authorization).toBe('Bearer s3cret');
  seen.length = 0;
  const other = await fetch(`http://127.0.0.1:${firstPort}/r?status=303&to=${encodeURIComponent('http://127.0.0.1:SECOND/landing')}`, {
    method: 'POST',
    body: 'x',
    headers: { authorization: 'Bearer s3cret', 'x-api-key': 'k', accept: 'application/json' },
  });
  expect(await other.text()).toBe('second');
  expect(seen.map((request) => request.path)).toEqual([expect.stringMatching(/^first\/r/), 'second/landing']);
  expect(seen[1]?.headers.authorization).toBeUndefined();
  expect(seen[1]?.headers['x-api-key']).toBeUndefined();
  expect(seen[1]?.headers.accept).toBe('application/json');
});

test('redirect loops end', async () => {
  const { fetch } = await pinned(['127.0.0.1/32']);
  await expect(fetch(`http://127.0.0.1:${firstPort}/loop`)).rejects.toThrow(/more than 5 redirects/);
  expect(seen).toHaveLength(6);
});

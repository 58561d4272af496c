#!/usr/bin/env node
// Registry hot paths, against the built package (npm run build first):
//   node bench/registry.mjs [postgres://…]
// Measures token verification, building a user's config, warm pool acquire + call, and what the
// pinned fetch costs per request over plain undici on loopback. SQLite always; PostgreSQL if a URL is given.
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ClientPool, ServerRegistry, createPinnedFetch } from '../dist/registry/index.js';

const KITCHEN_SINK = resolve(import.meta.dirname, '../test/fixtures/servers/kitchen-sink-server.mjs');

async function time(label, count, task) {
  for (let index = 0; index < Math.min(50, count); index++) await task(index); // warm-up
  const started = performance.now();
  for (let index = 0; index < count; index++) await task(index);
  const perOp = (performance.now() - started) / count;
  console.log(`${label.padEnd(44)} ${(perOp * 1000).toFixed(0).padStart(7)} µs/op  (${count} ops)`);
}

async function benchRegistry(db, label) {
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-'));
  const registry = await ServerRegistry.open({ db: db ?? join(dir, 'bench.db'), keyFile: join(dir, 'secret.key'), watch: false, resolveHost: async () => ['93.184.215.14'] });
  try {
    const suffix = Math.random().toString(36).slice(2, 8);
    const user = await registry.users.add(`bench-${suffix}`);
    for (let index = 0; index < 10; index++) {
      await registry.servers.add(user, `s${index}`, { url: `https://mcp.example.com/${index}`, apiKey: `sk-${index}-0123456789abcdef`, headers: { 'X-A': 'value-0123456789' } });
    }
    const { token } = await registry.tokens.create(user);
    console.log(`\n${label}`);
    await time('verifyToken (valid)', 2_000, () => registry.verifyToken(token));
    await time('verifyToken (unknown prefix)', 2_000, () => registry.verifyToken('sb_000000000000_' + 'a'.repeat(43)));
    await time('configForUser (10 servers, decrypt)', 500, () => registry.configForUser(user));
    await time('servers.list (10 servers, masked)', 500, () => registry.servers.list(user));
    await registry.templates.add(`sink-${suffix}`, { command: process.execPath, args: [KITCHEN_SINK] });
    const owner = await registry.users.add(`pool-${suffix}`);
    await registry.servers.add(owner, 'sink', { template: `sink-${suffix}` });
    const pool = new ClientPool(registry, { audit: true });
    try {
      const coldStart = performance.now();
      const first = await pool.acquire(owner);
      console.log(`${'pool.acquire, cold (spawns 1 stdio server)'.padEnd(44)} ${((performance.now() - coldStart) * 1000).toFixed(0).padStart(7)} µs`);
      first.release();
      await time('pool.acquire + release, warm', 5_000, async () => (await pool.acquire(owner)).release());
      const lease = await pool.acquire(owner);
      await time('UserClient.callTool echo (limit + audit row)', 1_000, () => lease.client.callTool('echo', { message: 'x' }));
      await time('MultiServerClient.callTool echo (no pool)', 1_000, () => lease.client.client.callTool('echo', { message: 'x' }));
      lease.release();
    } finally {
      await pool.close();
    }
  } finally {
    await registry.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchFetch() {
  const server = createServer((request, response) => response.end('ok'));
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${server.address().port}/`;
  const { Agent, fetch: undiciFetch } = await import('undici');
  const agent = new Agent();
  const pinned = await createPinnedFetch({ policy: { allowAddresses: ['loopback'], allowHttpHosts: ['127.0.0.1'] } });
  console.log('\nHTTP GET on loopback');
  await time('undici fetch', 2_000, async () => (await undiciFetch(url, { dispatcher: agent })).text());
  await time('pinned fetch (checks + Response wrap)', 2_000, async () => (await pinned.fetch(url)).text());
  await pinned.close();
  await agent.close();
  await new Promise((done) => server.close(done));
}

await benchRegistry(undefined, 'SQLite');
if (process.argv[2] !== undefined) await benchRegistry(process.argv[2], 'PostgreSQL');
await benchFetch();

/**
 * Hybrid tool search over real servers (server-memory, server-filesystem) with a real HTTP embeddings
 * endpoint on 127.0.0.1 (deterministic concept vectors): a request whose words are in no definition
 * finds the memory server's create_entities, which BM25 alone misses; tools are embedded once; an
 * unreachable endpoint or an HTTP error falls back to BM25 (saying why) and is left alone until the
 * retry window has passed.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MultiServerClient } from '../../src/client/multi-server-client.js';
import { HybridToolSearch } from '../../src/client/search/hybrid-tool-search.js';
import { startConceptEmbeddings, type ConceptEmbeddings } from '../fixtures/embeddings/concept-embeddings-server.js';
import { TEST_CLIENT_OPTIONS } from '../helpers/agents.js';
import { bin, ROOT } from '../helpers/fixtures.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const REQUEST = 'remember that Alice works at Acme';
let client: MultiServerClient;
let embeddings: ConceptEmbeddings;
let folder: string | undefined;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'sb-hybrid-'));
  client = await MultiServerClient.connect(
    {
      mcpServers: {
        memory: { command: process.execPath, args: [resolve(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js')], env: { MEMORY_FILE_PATH: join(folder, 'memory.jsonl') } },
        files: { command: bin('mcp-server-filesystem'), args: [folder] },
      },
    },
    TEST_CLIENT_OPTIONS,
  );
  embeddings = await startConceptEmbeddings();
}, 60_000);

afterAll(async () => {
  await client?.close();
  await embeddings?.close();
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

test('hybrid finds a tool BM25 alone misses; tool vectors are fetched once', async () => {
  const bm25 = client.searchTools(REQUEST, { limit: 5 }).map((tool) => tool.name);
  expect(bm25).not.toContain('create_entities');
  const search = new HybridToolSearch(client, { baseUrl: embeddings.baseUrl, model: 'concepts' });
  const first = await search.search(REQUEST, { limit: 3 });
  expect(first.mode).toBe('hybrid');
  expect(first.tools.map((tool) => tool.name)).toContain('create_entities');
  expect(embeddings.requests).toHaveLength(1);
  expect(embeddings.requests[0]?.[0]).toBe(REQUEST);
  expect(embeddings.requests[0]).toHaveLength(1 + client.listTools().length);
  // A request BM25 answers well stays answered: the fusion keeps its best hit.
  const files = await search.search('list the files in a directory', { limit: 3 });
  expect(files.tools[0]?.name).toBe('list_directory');
  expect(embeddings.requests.slice(1)).toEqual([['list the files in a directory']]);
});

test('an unreachable endpoint or an HTTP error: BM25 results, the reason, and no retry inside the window', async () => {
  const closed = createServer();
  await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((done) => closed.close(() => done()));
  const bm25 = client.searchTools(REQUEST, { limit: 5 }).map((tool) => tool.name);
  const unreachable = await new HybridToolSearch(client, { baseUrl: `http://127.0.0.1:${port}/v1`, model: 'concepts', timeoutMs: 2_000 }).search(REQUEST, { limit: 5 });
  expect(unreachable.mode).toBe('bm25');
  expect(unreachable.problem).toContain(`The embeddings endpoint http://127.0.0.1:${port}/v1/embeddings failed: cannot reach it`);
  expect(unreachable.tools.map((tool) => tool.name)).toEqual(bm25);

  let now = 1_000_000;
  const search = new HybridToolSearch(client, { baseUrl: embeddings.baseUrl, model: 'concepts', apiKey: 'sk-secret', retryAfterMs: 30_000, now: () => now });
  embeddings.failWith = 500;
  const failed = await search.search(REQUEST, { limit: 5 });
  expect(failed).toMatchObject({ mode: 'bm25', problem: expect.stringContaining('HTTP 500') });
  expect(failed.problem).not.toContain('sk-secret');
  expect(failed.tools.map((tool) => tool.name)).toEqual(bm25);
  const asked = embeddings.requests.length;
  embeddings.failWith = undefined;
  now += 10_000;
  expect((await search.search(REQUEST, { limit: 5 })).mode).toBe('bm25');
  expect(embeddings.requests.length).toBe(asked);
  now += 30_000;
  const back = await search.search(REQUEST, { limit: 3 });
  expect(back.mode).toBe('hybrid');
  expect(back.tools.map((tool) => tool.name)).toContain('create_entities');
});

test('bad options are clear errors', () => {
  expect(() => new HybridToolSearch(client, { baseUrl: 'localhost:11434', model: 'm' })).toThrow('embeddings.baseUrl must be an http:// or https:// URL');
  expect(() => new HybridToolSearch(client, { baseUrl: embeddings.baseUrl, model: 'm', vectorWeight: 2 })).toThrow('embeddings.vectorWeight must be a number from 0 to 1, got 2.');
});

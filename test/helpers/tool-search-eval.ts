/**
 * The tool-search evaluation: the captured corpus (test/fixtures/tool-corpus/servers.json, from
 * scripts/capture-tool-corpus.mjs) as one catalog under `prefix` naming, the labelled requests
 * (requests.json), and the figures: recall@1 / recall@5 (a request counts when one of its labelled
 * tools is among the first k results) and the size of the definitions a model is sent with and
 * without tool search (OpenAI Chat Completions `tools`, ≈ 4 characters a token).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { toChatCompletionsTools } from '../../src/adapters/openai-toolset.js';
import type { CatalogTool } from '../../src/client/multi-server-client.js';
import { metaToolDefinitions, ToolDiscovery } from '../../src/client/search/discovery-tools.js';
import { ToolIndex } from '../../src/client/search/tool-index.js';
import { resolveToolSearch } from '../../src/client/search/tool-search-mode.js';
import type { ToolResult } from '../../src/result/tool-result.js';
import { ROOT } from './fixtures.js';

const CORPUS = resolve(ROOT, 'test/fixtures/tool-corpus');

interface CorpusServer {
  server: string;
  package: string;
  version: string;
  tools: Array<{ name: string; title?: string; description?: string; inputSchema: CatalogTool['inputSchema'] }>;
}

/** One labelled request: the tools (`server/originalName`) that serve it. */
export interface LabelledRequest {
  request: string;
  tools: string[];
}

/** The corpus as catalog tools (named `server__tool`, as `naming: prefix` does), and its servers. */
export function loadCorpus(): { tools: CatalogTool[]; servers: Array<{ server: string; package: string; version: string; tools: number }> } {
  const { servers } = JSON.parse(readFileSync(resolve(CORPUS, 'servers.json'), 'utf8')) as { servers: CorpusServer[] };
  const tools = servers.flatMap((entry) =>
    entry.tools.map((tool): CatalogTool => ({
      name: `${entry.server}__${tool.name.replace(/[^A-Za-z0-9_-]/g, '_')}`,
      server: entry.server,
      originalName: tool.name,
      ...(tool.title === undefined ? {} : { title: tool.title }),
      description: tool.description === undefined ? `[${entry.server}]` : `[${entry.server}] ${tool.description}`,
      inputSchema: tool.inputSchema,
    })),
  );
  return { tools, servers: servers.map((entry) => ({ server: entry.server, package: entry.package, version: entry.version, tools: entry.tools.length })) };
}

/** The labelled requests. */
export function loadRequests(): LabelledRequest[] {
  return (JSON.parse(readFileSync(resolve(CORPUS, 'requests.json'), 'utf8')) as { requests: LabelledRequest[] }).requests;
}

/** The figures of one evaluation run. */
export interface EvaluationReport {
  tools: number;
  servers: number;
  requests: number;
  recallAt1: number;
  recallAt5: number;
  misses: Array<{ request: string; wanted: string[]; got: string[] }>;
  definitions: { allBytes: number; allTokens: number; metaBytes: number; metaTokens: number; withSearchBytes: number; withSearchTokens: number; savedShare: number };
}

/** Runs the evaluation over the corpus. */
export function evaluateToolSearch(): EvaluationReport {
  const { tools, servers } = loadCorpus();
  const requests = loadRequests();
  const index = new ToolIndex();
  index.sync(tools);
  const key = (tool: CatalogTool): string => `${tool.server}/${tool.originalName}`;
  let hitsAt1 = 0;
  let hitsAt5 = 0;
  const misses: EvaluationReport['misses'] = [];
  for (const { request, tools: wanted } of requests) {
    const got = index.search(request, { limit: 5 }).map((match) => key(match.tool));
    if (wanted.includes(got[0] ?? '')) hitsAt1++;
    if (got.some((name) => wanted.includes(name))) hitsAt5++;
    else misses.push({ request, wanted, got });
  }
  const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));
  const allBytes = bytes(toChatCompletionsTools(tools));
  const metaBytes = bytes(toChatCompletionsTools(metaToolDefinitions(tools.length).map((tool) => ({ ...tool, server: '', originalName: tool.name }))));
  // With search: the meta-tools up front, plus the text of one search_tools result (5 tools) per request.
  const catalog = { listTools: () => tools, catalogVersion: 1, getTool: (name: string) => tools.find((tool) => tool.name === name), callTool: (): Promise<ToolResult> => Promise.reject(new Error('not called')) };
  const discovery = new ToolDiscovery(catalog, resolveToolSearch('on'));
  let resultBytes = 0;
  for (const { request } of requests) {
    const first = discovery.search({ query: request }).result.content[0];
    resultBytes += first?.type === 'text' ? Buffer.byteLength(first.text) : 0;
  }
  const withSearchBytes = metaBytes + Math.round(resultBytes / requests.length);
  const tokens = (count: number): number => Math.ceil(count / 4);
  return {
    tools: tools.length,
    servers: servers.length,
    requests: requests.length,
    recallAt1: hitsAt1 / requests.length,
    recallAt5: hitsAt5 / requests.length,
    misses,
    definitions: { allBytes, allTokens: tokens(allBytes), metaBytes, metaTokens: tokens(metaBytes), withSearchBytes, withSearchTokens: tokens(withSearchBytes), savedShare: 1 - withSearchBytes / allBytes },
  };
}

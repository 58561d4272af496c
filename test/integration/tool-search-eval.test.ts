/**
 * The retrieval evaluation of tool search (docs/tool-search.md): ≥ 150 labelled requests over the real
 * tool lists of nine npm MCP servers. Fails below the targets: recall@5 ≥ 0.9, recall@1 ≥ 0.7, and at
 * least 80 % fewer definition tokens with tool search than with every definition. Prints the figures.
 */
import { expect, test } from 'vitest';
import { evaluateToolSearch, loadCorpus, loadRequests } from '../helpers/tool-search-eval.js';

test('the corpus: ≥ 8 real servers, 100+ tools, ≥ 150 requests labelled with tools that exist', () => {
  const { tools, servers } = loadCorpus();
  expect(servers.length).toBeGreaterThanOrEqual(8);
  expect(tools.length).toBeGreaterThanOrEqual(100);
  const names = new Set(tools.map((tool) => `${tool.server}/${tool.originalName}`));
  const requests = loadRequests();
  expect(requests.length).toBeGreaterThanOrEqual(150);
  expect(requests.flatMap((request) => request.tools).filter((name) => !names.has(name))).toEqual([]);
});

test('searchTools meets the targets: recall@5 ≥ 0.9, recall@1 ≥ 0.7, ≥ 80 % fewer definition tokens', () => {
  const report = evaluateToolSearch();
  const { definitions: d } = report;
  console.log(
    [
      `tool search over ${report.tools} tools of ${report.servers} servers, ${report.requests} requests`,
      `recall@1 ${report.recallAt1.toFixed(3)}  recall@5 ${report.recallAt5.toFixed(3)}`,
      `definitions: every tool ${d.allBytes} B ≈ ${d.allTokens} tokens; meta-tools ${d.metaBytes} B ≈ ${d.metaTokens} tokens; meta-tools + one search result ${d.withSearchBytes} B ≈ ${d.withSearchTokens} tokens (${(d.savedShare * 100).toFixed(1)} % fewer)`,
      ...report.misses.map((miss) => `miss: "${miss.request}" wanted ${miss.wanted.join('|')} got ${miss.got.join(', ')}`),
    ].join('\n'),
  );
  expect(report.recallAt5).toBeGreaterThanOrEqual(0.9);
  expect(report.recallAt1).toBeGreaterThanOrEqual(0.7);
  expect(d.savedShare).toBeGreaterThanOrEqual(0.8);
});

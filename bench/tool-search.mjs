#!/usr/bin/env node
// Tool search over 1,000+ tools: the real corpus (test/fixtures/tool-corpus, 123 tools of 9 npm servers)
// copied under 9 server names (1,107 tools), searched with the 166 labelled requests of the evaluation.
// Reports the index build, an incremental sync after one list change, and per-search latency (median,
// p95, p99 over 20 rounds of every request, after a warm-up). Not part of `npm run bench`'s table;
// figures go to docs/tool-search.md.
//
//   npm run build && node bench/tool-search.mjs
import { readFileSync } from 'node:fs';
import { ToolIndex } from 'mcp-switchboard';

const corpus = new URL('../test/fixtures/tool-corpus/', import.meta.url);
const { servers } = JSON.parse(readFileSync(new URL('servers.json', corpus), 'utf8'));
const { requests } = JSON.parse(readFileSync(new URL('requests.json', corpus), 'utf8'));
const COPIES = Number(process.env.COPIES ?? 9);
const tools = [];
for (let copy = 0; copy < COPIES; copy++) {
  for (const entry of servers) {
    const server = copy === 0 ? entry.server : `${entry.server}${copy}`;
    for (const tool of entry.tools) tools.push({ name: `${server}__${tool.name}`, server, originalName: tool.name, description: `[${server}] ${tool.description ?? ''}`, inputSchema: tool.inputSchema });
  }
}

const index = new ToolIndex();
let start = performance.now();
const buildCpu = process.cpuUsage();
index.sync(tools);
const buildMs = performance.now() - start;
const buildCpuMs = (({ user, system }) => (user + system) / 1000)(process.cpuUsage(buildCpu));
console.log(`tools indexed: ${index.size} (${COPIES} copies of ${tools.length / COPIES})`);
console.log(`index build: ${buildMs.toFixed(1)} ms (CPU ${buildCpuMs.toFixed(0)} ms)`);

// One server re-lists with one changed description: the sync compares, then re-indexes one tool.
const changed = tools.map((tool, i) => (i === 5 ? { ...tool, description: `${tool.description} (changed)` } : { ...tool }));
start = performance.now();
const sync = index.sync(changed);
const syncMs = performance.now() - start;
console.log(`incremental sync (1 of ${tools.length} changed: ${JSON.stringify(sync)}): ${syncMs.toFixed(2)} ms`);
if (process.env.BUILD_ONLY === '1') process.exit(0);

const queries = requests.map((request) => request.request);
for (let round = 0; round < 5; round++) for (const query of queries) index.search(query, { limit: 5 });
const samples = [];
const cpu = process.cpuUsage();
for (let round = 0; round < 20; round++) {
  for (const query of queries) {
    const t0 = performance.now();
    index.search(query, { limit: 5 });
    samples.push((performance.now() - t0) * 1000);
  }
}
const cpuUs = process.cpuUsage(cpu);
samples.sort((a, b) => a - b);
const at = (share) => samples[Math.min(samples.length - 1, Math.floor(share * samples.length))];
console.log(`search (limit 5, ${samples.length} searches): median ${at(0.5).toFixed(0)} µs, p95 ${at(0.95).toFixed(0)} µs, p99 ${at(0.99).toFixed(0)} µs; CPU time ${((cpuUs.user + cpuUs.system) / samples.length).toFixed(0)} µs a search on average`);

/**
 * Turns the workers' figures into medians and paired ratios, and renders the markdown tables.
 *
 * A ratio is a cost ratio against the raw pipe of the same repetition (> 1 = worse): client ÷ raw for
 * times, CPU and memory; raw ÷ client for rates (calls/s). Each table cell is the median over the
 * repetitions of the value, and the median of the per-repetition ratios.
 */

import { median } from './case-stats.mjs';
import { clientOf } from './clients.mjs';
import { gatewayOf } from './gateways.mjs';
import { renderWrk, summarizeWrk } from './wrk-case.mjs';
import { renderCluster, summarizeCluster } from './cluster-case.mjs';

/** Every figure a worker reports. `rate` figures are better when higher. */
export const METRICS = [
  { key: 'par64CpuUsPerCall', label: 'client CPU µs/call @64', unit: 'µs', group: 'calls' },
  { key: 'par64CallsPerSecond', label: 'calls/s @64', unit: '/s', rate: true, group: 'calls' },
  { key: 'seqP50Us', label: 'seq p50', unit: 'µs', group: 'calls' },
  { key: 'seqP99Us', label: 'seq p99', unit: 'µs', group: 'calls' },
  { key: 'seqCpuUsPerCall', label: 'seq client CPU µs/call', unit: 'µs', group: 'calls' },
  { key: 'kb1CallsPerSecond', label: '1 KB calls/s', unit: '/s', rate: true, group: 'calls' },
  { key: 'kb1CpuUsPerCall', label: '1 KB CPU µs/call', unit: 'µs', group: 'calls' },
  { key: 'kb100CallsPerSecond', label: '100 KB calls/s', unit: '/s', rate: true, group: 'calls' },
  { key: 'kb100CpuUsPerCall', label: '100 KB CPU µs/call', unit: 'µs', group: 'calls' },
  { key: 'sleep64Ms', label: '64 × sleep(50)', unit: 'ms', group: 'calls' },
  { key: 'connect1Ms', label: 'connect 1', unit: 'ms', group: 'calls' },
  { key: 'importMs', label: 'import', unit: 'ms', group: 'calls' },
  { key: 'rssIdleMiB', label: 'RSS idle', unit: 'MiB', group: 'calls' },
  { key: 'connect20Ms', label: 'connect 20', unit: 'ms', group: 'connect20' },
  { key: 'rss20MiB', label: 'RSS @20 servers', unit: 'MiB', group: 'connect20' },
  { key: 'heap20MiB', label: 'heap @20 servers', unit: 'MiB', group: 'connect20' },
  { key: 'list1000Ms', label: 'list 1000 tools', unit: 'ms', group: 'list1000' },
  { key: 'list1000CpuMs', label: 'list 1000 CPU', unit: 'ms', group: 'list1000' },
  { key: 'list1000ColdMs', label: 'first list 1000', unit: 'ms', group: 'list1000' },
  { key: 'connect1000Ms', label: 'connect 1000-tool server', unit: 'ms', group: 'list1000' },
];
const METRIC = Object.fromEntries(METRICS.map((metric) => [metric.key, metric]));

const OURS = ['connection', 'multi'];


function costRatio(metric, value, baseline) {
  if (value === undefined || baseline === undefined || value === 0 || baseline === 0) return undefined;
  return metric.rate ? baseline / value : value / baseline;
}

/** Medians and paired ratios per client and figure, plus the derived comparisons. */
export function summarize({ runs, gatewayRuns, cliRuns, wrkRuns = [], clusterRuns = [], clients, reps }) {
  const byKey = new Map();
  for (const run of runs) byKey.set(`${run.client}/${run.group}/${run.rep}`, run);
  const valueOf = (client, metric, rep) => {
    const run = byKey.get(`${client}/${metric.group}/${rep}`);
    return run === undefined || run.error !== undefined ? undefined : run[metric.key];
  };
  const table = {};
  const errors = {};
  for (const run of runs) if (run.error !== undefined) (errors[run.client] ??= []).push(`${run.group}: ${run.error.split('\n')[0]}`);
  for (const client of clients) {
    table[client] = {};
    for (const metric of METRICS) {
      const values = [];
      const ratios = [];
      const ratiosToSdk = [];
      for (let rep = 0; rep < reps; rep++) {
        const value = valueOf(client, metric, rep);
        values.push(value);
        ratios.push(costRatio(metric, value, valueOf('raw', metric, rep)));
        ratiosToSdk.push(costRatio(metric, value, valueOf('sdk', metric, rep)));
      }
      table[client][metric.key] = { value: median(values), ratio: median(ratios), ratioToSdk: median(ratiosToSdk), values, ratios };
    }
  }

  const pairedMedian = (fn) => median(Array.from({ length: reps }, (_, rep) => fn(rep)));
  const derived = {
    /** MultiServerClient over ServerConnection, client CPU per call at 64 in flight (> 1 = more). */
    multiOverConnectionCpu: pairedMedian((rep) => costRatio(METRIC.par64CpuUsPerCall, valueOf('multi', METRIC.par64CpuUsPerCall, rep), valueOf('connection', METRIC.par64CpuUsPerCall, rep))),
    multiOverConnectionRate: pairedMedian((rep) => costRatio(METRIC.par64CallsPerSecond, valueOf('multi', METRIC.par64CallsPerSecond, rep), valueOf('connection', METRIC.par64CallsPerSecond, rep))),
    multiOverConnectionSeq: pairedMedian((rep) => costRatio(METRIC.seqP50Us, valueOf('multi', METRIC.seqP50Us, rep), valueOf('connection', METRIC.seqP50Us, rep))),
    /** import('mcp-switchboard') over the SDK v1 client import. */
    importOverSdk: pairedMedian((rep) => costRatio(METRIC.importMs, valueOf('connection', METRIC.importMs, rep), valueOf('sdk', METRIC.importMs, rep))),
    cliStartMs: median(cliRuns.map((run) => run.cliStartMs)),
    nodeStartMs: median(cliRuns.map((run) => run.nodeStartMs)),
    cliError: cliRuns.find((run) => run.error !== undefined)?.error,
  };

  const gateway = {};
  const gatewayRep = new Map(gatewayRuns.map((run) => [`${run.gateway}/${run.rep}`, run]));
  for (const run of gatewayRuns) {
    const name = run.gateway;
    if (gateway[name] !== undefined) continue;
    const runsOf = gatewayRuns.filter((candidate) => candidate.gateway === name);
    const skipped = runsOf.find((candidate) => candidate.skipped !== undefined)?.skipped;
    const error = runsOf.find((candidate) => candidate.error !== undefined)?.error;
    const ok = runsOf.filter((candidate) => candidate.skipped === undefined && candidate.error === undefined);
    gateway[name] = {
      skipped,
      error: error?.split('\n')[0],
      seqP50Us: median(ok.map((candidate) => candidate.seqP50Us)),
      seqP99Us: median(ok.map((candidate) => candidate.seqP99Us)),
      par64CallsPerSecond: median(ok.map((candidate) => candidate.par64CallsPerSecond)),
      addedUs: median(ok.map((candidate) => candidate.seqP50Us - (gatewayRep.get(`direct/${candidate.rep}`)?.seqP50Us ?? Number.NaN))),
      rateRatio: median(ok.map((candidate) => (gatewayRep.get(`direct/${candidate.rep}`)?.par64CallsPerSecond ?? Number.NaN) / candidate.par64CallsPerSecond)),
    };
  }
  return { table, errors, derived, gateway, targets: evaluateTargets(table, derived), wrk: wrkRuns.length === 0 ? undefined : summarizeWrk(wrkRuns), cluster: clusterRuns.length === 0 ? undefined : summarizeCluster(clusterRuns) };
}

/** Issue 9's targets, judged on the medians of the paired ratios. */
function evaluateTargets(table, derived) {
  const targets = [];
  const ratio = (client, key) => table[client]?.[key]?.ratio;
  const add = (name, client, value, limit, text) => targets.push({ name, client, value, limit, met: value !== undefined && value <= limit, text });
  for (const client of OURS) {
    if (table[client] === undefined) continue;
    add('client CPU/call @64 ≤ 1.5× raw', client, ratio(client, 'par64CpuUsPerCall'), 1.5);
    add('calls/s @64 ≥ 0.95× raw', client, ratio(client, 'par64CallsPerSecond'), 1 / 0.95, 'cost ratio raw ÷ client ≤ 1.053');
    add('sequential p50 ≤ 1.1× raw', client, ratio(client, 'seqP50Us'), 1.1);
    add('list 1000 tools (incl. catalog) ≤ 1.2× raw', client, ratio(client, 'list1000Ms'), 1.2);
    add('connect 20 servers ≤ 1.0× raw', client, ratio(client, 'connect20Ms'), 1.0);
    add('RSS with 20 servers ≤ 1.3× raw', client, ratio(client, 'rss20MiB'), 1.3);
  }
  if (table.multi !== undefined && table.connection !== undefined) {
    add('MultiServerClient ≤ 5 % over ServerConnection (CPU/call @64)', 'multi', derived.multiOverConnectionCpu, 1.05);
  }
  if (table.connection !== undefined && table.sdk !== undefined) add("import('mcp-switchboard') ≤ 0.6× SDK v1 import", 'connection', derived.importOverSdk, 0.6);
  return targets;
}

function formatValue(value, unit) {
  if (value === undefined) return '–';
  if (unit === '/s') return value >= 1000 ? `${(value / 1000).toFixed(1)}k` : value.toFixed(0);
  if (unit === 'MiB') return value.toFixed(1);
  if (value >= 1000) return value.toFixed(0);
  if (value >= 100) return value.toFixed(0);
  if (value >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

function formatRatio(ratio) {
  return ratio === undefined ? '–' : `${ratio.toFixed(2)}×`;
}

function cell(entry, unit) {
  if (entry === undefined || entry.value === undefined) return '–';
  return `${formatValue(entry.value, unit)} (${formatRatio(entry.ratio)})`;
}

function metricTable(summary, clients, keys) {
  const header = ['client', ...keys.map((key) => `${METRIC[key].label} (${METRIC[key].unit})`)];
  const lines = [`| ${header.join(' | ')} |`, `| --- | ${keys.map(() => '---:').join(' | ')} |`];
  for (const client of clients) {
    const row = summary.table[client];
    const label = OURS.includes(client) ? `**${clientOf(client).label}**` : clientOf(client).label;
    lines.push(`| ${label} | ${keys.map((key) => cell(row[key], METRIC[key].unit)).join(' | ')} |`);
  }
  return lines.join('\n');
}

/** Which client is best on a figure, and whether one of ours is ahead of every peer. */
function leadership(summary, clients) {
  const peers = clients.filter((client) => client !== 'raw' && !OURS.includes(client));
  const ours = clients.filter((client) => OURS.includes(client));
  const lines = ['| figure | best of ours | best peer | ours ahead |', '| --- | --- | --- | :---: |'];
  for (const key of ['par64CpuUsPerCall', 'par64CallsPerSecond', 'seqP50Us', 'kb1CallsPerSecond', 'kb100CallsPerSecond', 'connect1Ms', 'connect20Ms', 'list1000Ms', 'rss20MiB', 'importMs']) {
    const pick = (names) =>
      names
        .map((name) => ({ name, ratio: summary.table[name]?.[key]?.ratio }))
        .filter((entry) => entry.ratio !== undefined)
        .sort((a, b) => a.ratio - b.ratio)[0];
    const bestOurs = pick(ours);
    const bestPeer = pick(peers);
    if (bestOurs === undefined || bestPeer === undefined) continue;
    lines.push(
      `| ${METRIC[key].label} | ${clientOf(bestOurs.name).label} ${formatRatio(bestOurs.ratio)} | ${clientOf(bestPeer.name).label} ${formatRatio(bestPeer.ratio)} | ${bestOurs.ratio <= bestPeer.ratio ? 'yes' : 'no'} |`,
    );
  }
  return lines.join('\n');
}

/** The whole markdown report printed by `npm run bench`. */
export function renderReport(summary, meta) {
  const clients = meta.options.clients.filter((client) => summary.table[client] !== undefined);
  const { machine } = meta;
  const out = [];
  // The wrk case alone (--wrk-only): no client rows.
  if (clients.length === 0) return `${summary.wrk === undefined ? '' : renderWrk(summary.wrk)}${summary.cluster === undefined ? '' : renderCluster(summary.cluster)}`;
  out.push('## Client-side MCP overhead over stdio\n');
  out.push(
    `${machine.date.slice(0, 10)} · ${machine.cpu} × ${machine.cores} · ${machine.memoryGiB} GiB · ${machine.os} · Node ${machine.node} · load average at start ${machine.loadAverageAtStart.join(' / ')} · ` +
      `${meta.options.reps} repetition${meta.options.reps === 1 ? '' : 's'}${meta.options.quick ? ' (--quick)' : ''} · ${meta.elapsedS.toFixed(0)} s\n`,
  );
  out.push('Each cell: median over the repetitions, and (in brackets) the median of the ratios to the raw pipe of the same repetition; > 1× is worse (for calls/s: raw ÷ client).\n');
  out.push('### Key figures\n');
  out.push(metricTable(summary, clients, ['par64CpuUsPerCall', 'par64CallsPerSecond', 'seqP50Us', 'kb1CallsPerSecond', 'kb100CallsPerSecond', 'connect1Ms', 'connect20Ms', 'list1000Ms', 'rss20MiB', 'importMs']));
  out.push('\n### Secondary figures\n');
  out.push(metricTable(summary, clients, ['seqP99Us', 'seqCpuUsPerCall', 'kb1CpuUsPerCall', 'kb100CpuUsPerCall', 'sleep64Ms', 'list1000CpuMs', 'list1000ColdMs', 'connect1000Ms', 'rssIdleMiB', 'heap20MiB']));
  out.push('\n### Targets (issue 9; paired ratios, median over the repetitions)\n');
  out.push('| target | client | measured | met |\n| --- | --- | ---: | :---: |');
  for (const target of summary.targets) {
    out.push(`| ${target.name} | ${clientOf(target.client).label} | ${formatRatio(target.value)} | ${target.met ? 'yes' : '**no**'} |`);
  }
  const { derived } = summary;
  out.push('');
  out.push(
    `MultiServerClient ÷ ServerConnection: CPU/call @64 ${formatRatio(derived.multiOverConnectionCpu)}, calls/s @64 ${formatRatio(derived.multiOverConnectionRate)} (cost), seq p50 ${formatRatio(derived.multiOverConnectionSeq)}. ` +
      `\`import('mcp-switchboard')\` ÷ SDK v1 import: ${formatRatio(derived.importOverSdk)}. ` +
      (derived.cliError === undefined
        ? `\`switchboard --version\`: ${formatValue(derived.cliStartMs, 'ms')} ms wall (a bare \`node -e 0\`: ${formatValue(derived.nodeStartMs, 'ms')} ms).`
        : `\`switchboard --version\` failed: ${derived.cliError}.`),
  );
  out.push('\n### Ahead of every peer?\n');
  out.push(leadership(summary, clients));
  if (Object.keys(summary.gateway).length > 0) {
    out.push('\n### Gateway: the stdio echo server fronted over Streamable HTTP (same SDK v1 client for every row)\n');
    out.push('| gateway | seq p50 µs | added p50 µs vs direct | seq p99 µs | calls/s @64 | cost ×direct |\n| --- | ---: | ---: | ---: | ---: | ---: |');
    for (const [name, row] of Object.entries(summary.gateway)) {
      const label = gatewayOf(name).label;
      if (row.skipped !== undefined) out.push(`| ${label} | skipped: ${row.skipped} | | | | |`);
      else if (row.error !== undefined && row.seqP50Us === undefined) out.push(`| ${label} | failed: ${row.error} | | | | |`);
      else
        out.push(
          `| ${label} | ${formatValue(row.seqP50Us, 'µs')} | ${name === 'direct' ? '–' : formatValue(row.addedUs, 'µs')} | ${formatValue(row.seqP99Us, 'µs')} | ${formatValue(row.par64CallsPerSecond, '/s')} | ${name === 'direct' ? '1.00×' : formatRatio(row.rateRatio)} |`,
        );
    }
  }
  const failed = Object.entries(summary.errors);
  if (failed.length > 0) {
    out.push('\n### Failures and skips\n');
    for (const [client, list] of failed) out.push(`- ${clientOf(client).label}: ${[...new Set(list)].join('; ')}`);
  }
  out.push('\n### Clients\n');
  out.push('| row | packages |\n| --- | --- |');
  for (const client of clients) out.push(`| ${clientOf(client).label} | ${clientOf(client).packages} |`);
  // Last, so that `--wrk-only --update-docs` can replace just this section of docs/benchmarks.md.
  if (summary.wrk !== undefined) out.push(renderWrk(summary.wrk));
  if (summary.cluster !== undefined) out.push(renderCluster(summary.cluster));
  return `${out.join('\n')}\n`;
}

/** docs/benchmarks.md: how the figures are made, then the report of the run. */
export function renderDocs(report, meta) {
  return `# Benchmarks

Generated by \`npm run bench -- --update-docs\` (bench/run.mjs); \`npm run bench\` alone prints the same
tables and writes \`bench/results/latest.json\` without touching this file. Profiles and what they show are
in [bench/README.md](../bench/README.md). Tool search (retrieval quality, definition tokens, search latency
over 1,000+ tools) is measured separately: [tool-search.md](tool-search.md).

## Machine

${meta.machine.cpu}, ${meta.machine.cores} vCPUs shared with other work, ${meta.machine.memoryGiB} GiB, ${meta.machine.os}, Node ${meta.machine.node}.
Absolute times on this machine move by ±30 % from run to run; read the **ratios**, which are paired within
a repetition, and the client CPU per call, the steadiest figure.

## Method

- **Server.** Every row talks to the same server: an SDK v1 (1.32.2) \`McpServer\` over stdio
  (\`bench/echo-server.mjs\`) with \`echo {text}\`, \`sleep {ms}\` and, for the listing case, 1,000 extra tools
  with a memoized \`tools/list\` answer, so the listing measures the client. It bounds calls/s at 64 in flight,
  which compresses the ratios of light clients; client CPU per call does not depend on it.
- **Isolation.** Each (client, group) runs in a fresh \`node --expose-gc bench/worker.mjs\` process, which
  imports only that library: import time, heap and RSS are that client's. Client CPU is \`process.cpuUsage()\`
  around the measured loop (the servers are other processes).
- **Interleaving.** For each repetition and group every client runs once, in an order rotated per repetition.
  Ratios are taken to the raw pipe (\`bench/raw-client.mjs\`: newline-delimited JSON-RPC with an id map and
  nothing else) of the same repetition; tables show the medians over the repetitions.
- **Same path for every library.** Each adapter (\`bench/clients.mjs\`) uses the library's own "connect these
  servers and give me tools" path with its tool conversion, then calls the converted \`echo\` tool as an app
  would (LangChain \`tool.invoke\`, Mastra \`tool.execute\`, AI SDK \`tool.execute\`, SDK / mcp-use / ours
  \`callTool\`).
- **Cases.** \`calls\`: connect 1 server; 2,000 sequential echoes (p50, p99, CPU/call); 5,000 echoes at 64 in
  flight (calls/s, CPU/call); 2,000 1 KB and 400 100 KB echoes at 64 in flight; 64 × \`sleep(50)\` at once.
  \`connect20\`: 20 servers started together through the library's multi-server API (or \`Promise.all\`), one
  echo on each, \`gc()\`, RSS. \`list1000\`: a server with 1,003 tools, 6 listings through the library (first
  cold, median of the rest). For \`MultiServerClient\`, whose \`listTools()\` is a cached catalog, the figure is a
  refresh: from the server's \`notifications/tools/list_changed\` to the \`tools-changed\` event (re-list,
  validate, rename, rebuild the routing table), with \`listChangedDebounceMs: 0\`.
- **Environment.** Every client gives its servers the same minimal environment (HOME, LOGNAME, PATH, SHELL,
  TERM, USER). The workers run without \`NODE_EXTRA_CA_CERTS\`, which on this machine costs each Node server
  tens of milliseconds of start-up when a client passes it on.
- **Gateway.** The echo server behind each gateway over Streamable HTTP, measured with the same SDK v1 client;
  "direct" is that client over stdio.
- **Gateway, wrk case (issue 17).** wrk (Debian's, one thread) against each gateway itself, so the load
  generator is not what is measured: a **floor** row (\`bench/floor-gateway.mjs\`, a bare HTTP→stdio forwarder:
  bearer check, JSON parse, write to the pipe, SSE-framed answer), \`switchboard serve\` in its default
  configuration, supergateway and mcp-proxy, in an order rotated per repetition, all on the echo server. A
  2025-era session (initialize once, then \`tools/call\` with the session id) and 2026-07-28 stateless
  requests, at 1, 8 and 64 connections; CPU per call is the gateway process's own utime + stime from
  \`/proc/PID/stat\` (the upstream is a child, not counted). \`bench/wrk-worker.mjs\`, \`bench/wrk-case.mjs\`;
  \`node bench/run.mjs --wrk-only\` runs just this case.
- **Cluster case (issue 20).** wrk through a real HAProxy running \`deploy/haproxy.cfg\` to 1 and to 3 replicas
  of \`switchboard serve\` on one fresh PostgreSQL database (and to 1 replica without HAProxy), rows in an order
  rotated per repetition; a 2025-era session (every replica resumes its sealed id) and 2026-07-28 requests, at
  8 and 64 connections; CPU per call summed over the replica processes (\`/proc/PID/stat\`), HAProxy's apart.
  \`bench/cluster-worker.mjs\`, \`bench/cluster-case.mjs\`; \`node bench/run.mjs --cluster-only\` runs just it;
  it is skipped, with the reason, without PostgreSQL (\`SWITCHBOARD_TEST_POSTGRES\`) or HAProxy.
- **Versions.** \`npm install\` on Node 20 picks the newest release whose \`engines\` admits Node 20: @mastra/mcp
  0.14.5, @ai-sdk/mcp 1.0.102, mcp-use 1.34.6 (the last with a client).

## Results

${report}`;
}

#!/usr/bin/env node
/**
 * `npm run bench`: every client side by side with the raw pipe, interleaved, repeated.
 *
 *   node bench/run.mjs [--quick] [--reps N] [--clients raw,sdk,...] [--groups calls,connect20,list1000]
 *                      [--no-gateway | --gateway-only] [--no-wrk | --wrk-only] [--no-cluster | --cluster-only] [--update-docs]
 *
 * The wrk case (bench/wrk-worker.mjs: wrk against the floor forwarder, switchboard, supergateway and
 * mcp-proxy, 2025 and 2026-07-28 eras, a 1,000-tool listing, idle sessions) runs after the gateway rows
 * of each repetition; `--wrk-only` runs just it. The cluster case (bench/cluster-worker.mjs: HAProxy to 1 vs 3
 * replicas on one PostgreSQL database, CPU per call summed over the replicas) runs after it;
 * `--cluster-only` runs just that one (skipped, with the reason, without PostgreSQL or HAProxy).
 *
 * Each (client, group) runs in a fresh `node --expose-gc bench/worker.mjs` process. For each
 * repetition and group every client runs once, in an order rotated per repetition (A B C / B C A / …).
 * Every figure is also given as a ratio to the raw pipe measured in the same repetition; tables show
 * medians over the repetitions. Writes bench/results/latest.json and latest.md (gitignored) and, with
 * --update-docs, docs/benchmarks.md.
 */

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { CLIENT_NAMES } from './clients.mjs';
import { GATEWAY_NAMES } from './gateways.mjs';
import { ensureWrk, WRK_GATEWAYS, WRK_SCENARIOS, WRK_SECTION } from './wrk-case.mjs';
import { CLUSTER_ROWS, CLUSTER_SCENARIOS, CLUSTER_SECTION, ensureHaproxy } from './cluster-case.mjs';
import { renderDocs, renderReport, summarize } from './report.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const benchDir = fileURLToPath(new URL('.', import.meta.url));
const resultsDir = `${benchDir}results`;
const WORKER_TIMEOUT_MS = 180_000;

function parseArgs(argv) {
  const options = { quick: false, reps: undefined, clients: CLIENT_NAMES, groups: ['calls', 'connect20', 'list1000'], gateway: true, gatewayOnly: false, wrk: true, wrkOnly: false, cluster: true, clusterOnly: false, updateDocs: false };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (arg === '--quick') options.quick = true;
    else if (arg === '--reps') options.reps = Number(argv[++index]);
    else if (arg === '--clients') options.clients = argv[++index].split(',');
    else if (arg === '--groups') options.groups = argv[++index].split(',');
    else if (arg === '--no-gateway') options.gateway = false;
    else if (arg === '--gateway-only') options.gatewayOnly = true;
    else if (arg === '--no-wrk') options.wrk = false;
    else if (arg === '--wrk-only') options.wrkOnly = true;
    else if (arg === '--no-cluster') options.cluster = false;
    else if (arg === '--cluster-only') options.clusterOnly = true;
    else if (arg === '--update-docs') options.updateDocs = true;
    else {
      console.error(`unknown option ${arg}\nusage: node bench/run.mjs [--quick] [--reps N] [--clients a,b] [--groups calls,connect20,list1000] [--no-gateway | --gateway-only] [--no-wrk | --wrk-only] [--no-cluster | --cluster-only] [--update-docs]`);
      process.exit(2);
    }
  }
  options.reps ??= options.quick ? 1 : 3;
  // Only the gateway rows (and the raw client's `calls` row the report is anchored to).
  if (options.gatewayOnly) {
    options.clients = ['raw'];
    options.groups = ['calls'];
  }
  // Only the wrk case (or only the cluster case): no client rows, no SDK-client gateway rows.
  if (options.wrkOnly || options.clusterOnly) {
    options.clients = [];
    options.groups = [];
    options.gateway = false;
    options.wrk = options.wrkOnly;
    options.cluster = options.clusterOnly;
  }
  if (!options.clients.includes('raw') && !options.wrkOnly && !options.clusterOnly) options.clients = ['raw', ...options.clients];
  for (const name of options.clients) if (!CLIENT_NAMES.includes(name)) throw new Error(`unknown client ${name}; known: ${CLIENT_NAMES.join(', ')}`);
  return options;
}

/**
 * The workers' environment. NODE_EXTRA_CA_CERTS (set on this machine) costs each Node server tens of
 * milliseconds of start-up when a client passes it on; removing it puts every client on the same footing.
 */
function workerEnv() {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

function runNode(args, { timeoutMs = WORKER_TIMEOUT_MS, log } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, env: workerEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (log !== undefined && output !== '') appendFileSync(log, `--- node ${args.join(' ')} (exit ${code ?? signal})\n${output}\n`);
      resolve({ code, signal, output });
    });
  });
}

async function runWorker(script, client, group, options, log) {
  const outFile = `${resultsDir}/.worker-${process.pid}.json`;
  rmSync(outFile, { force: true });
  const { code, signal } = await runNode(['--expose-gc', `${benchDir}${script}`, client, group, outFile, ...(options.quick ? ['--quick'] : [])], { log });
  if (!existsSync(outFile)) return { client, group, error: `worker ended (${code ?? signal}) without a result; see bench/results/worker.log` };
  const result = JSON.parse(readFileSync(outFile, 'utf8'));
  rmSync(outFile, { force: true });
  return result;
}

/** `switchboard --version` wall time against a bare `node -e 0`, interleaved. */
async function measureCliStart(samples) {
  const cli = [];
  const bare = [];
  for (let index = 0; index < samples; index++) {
    let started = performance.now();
    await runNode(['-e', '0']);
    bare.push(performance.now() - started);
    started = performance.now();
    const { code } = await runNode([`${root}bin/switchboard.js`, '--version']);
    if (code !== 0) return { error: `switchboard --version exited with ${code}` };
    cli.push(performance.now() - started);
  }
  const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
  return { cliStartMs: median(cli), nodeStartMs: median(bare) };
}

function describeMachine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 1024 ** 3),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    loadAverageAtStart: os.loadavg().map((value) => Number(value.toFixed(2))),
    date: new Date().toISOString(),
  };
}

/** `text` with the `## ` section that starts with `heading` replaced by `section` (up to the next `## ` heading), or `section` added at the end. */
function replaceSection(text, heading, section) {
  const start = text.indexOf(heading);
  if (start === -1) return `${text.trimEnd()}\n\n${section}`;
  const next = text.indexOf('\n## ', start + heading.length);
  return `${text.slice(0, start)}${section.trimEnd()}\n${next === -1 ? '' : `${text.slice(next)}`}`;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!existsSync(`${root}dist/index.js`)) {
    console.error('dist/ is missing: run `npm run build` first (npm run bench does).');
    process.exit(2);
  }
  mkdirSync(resultsDir, { recursive: true });
  const log = `${resultsDir}/worker.log`;
  writeFileSync(log, '');
  const started = performance.now();
  const machine = describeMachine();
  const runs = [];
  const gatewayRuns = [];
  const cliRuns = [];
  const wrkRuns = [];
  const clusterRuns = [];
  if (options.wrk || options.cluster) ensureWrk();
  if (options.cluster) ensureHaproxy();
  const total = options.reps * options.groups.length * options.clients.length;
  let done = 0;
  for (let rep = 0; rep < options.reps; rep++) {
    const order = options.clients.map((_, index) => options.clients[(index + rep) % options.clients.length]);
    for (const group of options.groups) {
      for (const client of order) {
        const result = await runWorker('worker.mjs', client, group, options, log);
        result.rep = rep;
        runs.push(result);
        done++;
        const status = result.error === undefined ? 'ok' : `FAILED: ${result.error.split('\n')[0]}`;
        process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${done}/${total} rep ${rep + 1} ${group.padEnd(9)} ${client.padEnd(10)} ${status}\n`);
      }
    }
    if (options.gateway) {
      const order = GATEWAY_NAMES.map((_, index) => GATEWAY_NAMES[(index + rep) % GATEWAY_NAMES.length]);
      for (const gateway of order) {
        const result = await runWorker('gateway-worker.mjs', gateway, 'gateway', options, log);
        result.rep = rep;
        gatewayRuns.push(result);
        const status = result.skipped !== undefined ? `skipped: ${result.skipped}` : result.error === undefined ? 'ok' : `FAILED: ${result.error.split('\n')[0]}`;
        process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] rep ${rep + 1} gateway   ${gateway.padEnd(12)} ${status}\n`);
      }
    }
    if (options.wrk) {
      const order = WRK_GATEWAYS.map((_, index) => WRK_GATEWAYS[(index + rep) % WRK_GATEWAYS.length]);
      for (const scenario of WRK_SCENARIOS) {
        // The calls scenarios run every row at once, interleaved (see wrk-worker.mjs); the others one row per process.
        const interleaved = scenario === '2025' || scenario === '2026';
        for (const gateway of interleaved ? ['interleaved'] : order) {
          const outcome = await runWorker('wrk-worker.mjs', gateway, scenario, options, log);
          const results = Array.isArray(outcome) ? outcome : interleaved ? WRK_GATEWAYS.map((row) => ({ ...outcome, gateway: row, scenario })) : [outcome];
          for (const result of results) {
            result.rep = rep;
            wrkRuns.push(result);
            const status = result.skipped !== undefined ? `skipped: ${result.skipped}` : result.error === undefined ? 'ok' : `FAILED: ${result.error.split('\n')[0]}`;
            process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] rep ${rep + 1} wrk ${scenario.padEnd(8)} ${result.gateway.padEnd(12)} ${status}\n`);
          }
        }
      }
    }
    if (options.cluster) {
      const order = CLUSTER_ROWS.map((_, index) => CLUSTER_ROWS[(index + rep) % CLUSTER_ROWS.length]);
      for (const scenario of CLUSTER_SCENARIOS) {
        for (const row of order) {
          const result = await runWorker('cluster-worker.mjs', row, scenario, options, log);
          result.rep = rep;
          clusterRuns.push(result);
          const status = result.skipped !== undefined ? `skipped: ${result.skipped}` : result.error === undefined ? 'ok' : `FAILED: ${result.error.split('\n')[0]}`;
          process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] rep ${rep + 1} cluster ${scenario.padEnd(4)} ${row.padEnd(10)} ${status}\n`);
        }
      }
    }
    if (options.wrkOnly || options.clusterOnly) continue;
    const cli = await measureCliStart(options.quick ? 3 : 5);
    cli.rep = rep;
    cliRuns.push(cli);
  }
  const elapsedS = (performance.now() - started) / 1000;
  const summary = summarize({ runs, gatewayRuns, cliRuns, wrkRuns, clusterRuns, clients: options.clients, reps: options.reps });
  const meta = { machine, options: { quick: options.quick, reps: options.reps, groups: options.groups, clients: options.clients }, elapsedS };
  const report = renderReport(summary, meta);
  writeFileSync(`${resultsDir}/latest.json`, `${JSON.stringify({ meta, summary, runs, gatewayRuns, cliRuns, wrkRuns, clusterRuns }, null, 2)}\n`);
  writeFileSync(`${resultsDir}/latest.md`, report);
  if (options.updateDocs && (options.wrkOnly || options.clusterOnly)) {
    // Only the wrk (or cluster) case ran: its section of docs/benchmarks.md is replaced (or added), the rest kept.
    const docs = `${root}docs/benchmarks.md`;
    const current = existsSync(docs) ? readFileSync(docs, 'utf8') : renderDocs('', meta);
    const flag = options.wrkOnly ? '--wrk-only' : '--cluster-only';
    const note = `_This section: \`node bench/run.mjs ${flag}${options.quick ? ' --quick' : ''} --reps ${options.reps} --update-docs\`, ${meta.machine.date.slice(0, 16).replace('T', ' ')} UTC, load average at start ${meta.machine.loadAverageAtStart.join(' / ')}._\n`;
    const section = report.trimStart().replace(/\n/, `\n\n${note}`);
    writeFileSync(docs, replaceSection(current, options.wrkOnly ? WRK_SECTION : CLUSTER_SECTION, section));
  } else if (options.updateDocs) {
    mkdirSync(`${root}docs`, { recursive: true });
    writeFileSync(`${root}docs/benchmarks.md`, renderDocs(report, meta));
  }
  process.stdout.write(report);
  process.stderr.write(`\nfinished in ${elapsedS.toFixed(0)} s; wrote bench/results/latest.json${options.updateDocs ? ' and docs/benchmarks.md' : ''}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

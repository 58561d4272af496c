/**
 * The cluster case (issue 20): which rows and scenarios run (bench/cluster-worker.mjs measures one),
 * HAProxy itself (installed from Debian when missing, as wrk is), and the summary and table of the case:
 * calls/s through HAProxy to 1 and to 3 replicas of `switchboard serve` on one PostgreSQL database, and
 * the CPU per call summed over the replicas, which should not grow with their number. Ratios are paired
 * (3 replicas against 1 of the same repetition and scenario), then the median over the repetitions.
 */

import { spawnSync } from 'node:child_process';
import { aptInstall } from './apt-install.mjs';
import { median, valueAt } from './case-stats.mjs';

export const CLUSTER_ROWS = ['direct-1', 'haproxy-1', 'haproxy-3'];
export const CLUSTER_SCENARIOS = ['2025', '2026'];
/** The heading of the case's section in the report (and in docs/benchmarks.md). */
export const CLUSTER_SECTION = '## Cluster case: 1 vs 3 replicas behind HAProxy (issue 20)';
const LABELS = { 'direct-1': '1 replica, no HAProxy', 'haproxy-1': 'HAProxy → 1 replica', 'haproxy-3': 'HAProxy → 3 replicas' };
const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';

/** Makes sure HAProxy runs here: `apt-get install haproxy` when it is missing (as root, or through sudo); the case skips if that fails. */
export function ensureHaproxy() {
  if (spawnSync(HAPROXY, ['-v']).status === 0) return;
  process.stderr.write('haproxy is missing: installing it with apt-get (Debian package haproxy)\n');
  try {
    aptInstall('haproxy');
  } catch (error) {
    process.stderr.write(`could not install haproxy (${error instanceof Error ? error.message : String(error)}); the cluster case will be skipped\n`);
  }
}

const FIGURES = [
  { key: 'c8.callsPerSecond', label: 'calls/s @8' },
  { key: 'c64.callsPerSecond', label: 'calls/s @64' },
  { key: 'c8.cpuUsPerCall', label: 'replicas CPU µs/call @8' },
  { key: 'c64.cpuUsPerCall', label: 'replicas CPU µs/call @64' },
  { key: 'c64.haproxyCpuUsPerCall', label: 'HAProxy CPU µs/call @64' },
  { key: 'c8.p50Us', label: 'p50 µs @8' },
  { key: 'c64.p99Us', label: 'p99 µs @64' },
];

/** Medians per scenario and row; the paired 3 ÷ 1 ratios; the CPU shares of the three replicas. */
export function summarizeCluster(clusterRuns) {
  const ok = (run) => run.error === undefined && run.skipped === undefined;
  const rows = {};
  const scaling = {};
  for (const scenario of CLUSTER_SCENARIOS) {
    rows[scenario] = {};
    for (const name of CLUSTER_ROWS) {
      const runs = clusterRuns.filter((run) => run.row === name && run.scenario === scenario);
      if (runs.length === 0) continue;
      const good = runs.filter(ok);
      const row = { skipped: runs.find((run) => run.skipped !== undefined)?.skipped, failures: runs.filter((run) => run.error !== undefined).map((run) => run.error.split('\n')[0]), figures: {} };
      row.errors = good.reduce((sum, run) => sum + (run.c8?.errors ?? 0) + (run.c64?.errors ?? 0), 0);
      for (const figure of FIGURES) row.figures[figure.key] = median(good.map((run) => valueAt(run, figure.key)));
      if (name === 'haproxy-3') row.shares = [0, 1, 2].map((index) => median(good.map((run) => run.c64?.cpuShares?.[index])));
      rows[scenario][name] = row;
    }
    const pairs = clusterRuns.filter((run) => run.row === 'haproxy-3' && run.scenario === scenario && ok(run));
    const ratio = (key) =>
      median(
        pairs.map((three) => {
          const one = clusterRuns.find((run) => run.row === 'haproxy-1' && run.scenario === scenario && run.rep === three.rep && ok(run));
          const base = valueAt(one, key);
          const value = valueAt(three, key);
          return base > 0 && value > 0 ? value / base : Number.NaN;
        }),
      );
    scaling[scenario] = { rate8: ratio('c8.callsPerSecond'), rate64: ratio('c64.callsPerSecond'), cpu8: ratio('c8.cpuUsPerCall'), cpu64: ratio('c64.cpuUsPerCall') };
  }
  return { rows, scaling };
}

function format(value) {
  if (value === undefined || !Number.isFinite(value)) return '–';
  return value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1);
}
const times = (value) => (value === undefined || !Number.isFinite(value) ? '–' : `${value.toFixed(2)}×`);

/** The markdown section of the case. */
export function renderCluster(summary) {
  const out = [`\n${CLUSTER_SECTION}\n`];
  out.push(
    'wrk (one thread) POSTs `tools/call echo` through a real HAProxy running deploy/haproxy.cfg (round-robin, no stickiness, one request per client connection) to N replicas of `switchboard serve` on one fresh PostgreSQL database, each with the stdio echo server; "1 replica, no HAProxy" is wrk straight to one replica. CPU per call is summed over the replica processes (/proc/PID/stat utime + stime; the echo servers are not in it); HAProxy\'s own is its column. Every process shares the machine\'s 2 cores with wrk and with whatever else runs: on a loaded machine 3 replica processes get a larger share of the scheduler than one, so the calls/s ratio shows that as much as the cluster, and CPU per call is the figure to compare. The echo answer is tiny: at @8 each of 3 replicas sees about 3 requests at a time, against 8 on one replica: less is batched per event-loop turn, a likely (not profiled) reason why CPU per call @8 is higher with 3. Each cell: median over the repetitions. An error is a non-200 answer, one without the echoed text, or a socket error.\n',
  );
  for (const [scenario, rows] of Object.entries(summary.rows)) {
    if (Object.keys(rows).length === 0) continue;
    out.push(`### ${scenario === '2025' ? '2025-era session (initialize once through HAProxy; every replica resumes its sealed Mcp-Session-Id)' : '2026-07-28 stateless requests'}\n`);
    out.push(`| row | ${FIGURES.map((figure) => figure.label).join(' | ')} | errors |`);
    out.push(`| --- | ${FIGURES.map(() => '---:').join(' | ')} | ---: |`);
    for (const [name, row] of Object.entries(rows)) {
      if (row.skipped !== undefined) out.push(`| ${LABELS[name]} | skipped: ${row.skipped} |${FIGURES.map(() => ' |').join('')}`);
      else if (row.figures[FIGURES[0].key] === undefined) out.push(`| ${LABELS[name]} | failed: ${row.failures[0] ?? '?'} |${FIGURES.map(() => ' |').join('')}`);
      else out.push(`| ${LABELS[name]} | ${FIGURES.map((figure) => format(row.figures[figure.key])).join(' | ')} | ${row.errors}${row.failures.length > 0 ? ` + ${row.failures.length} failed runs` : ''} |`);
    }
    const scaling = summary.scaling[scenario];
    const shares = rows['haproxy-3']?.shares;
    if (scaling !== undefined && Number.isFinite(scaling.rate64)) {
      out.push(
        `\n3 ÷ 1 replicas through HAProxy (paired per repetition): calls/s ${times(scaling.rate8)} @8, ${times(scaling.rate64)} @64; replicas' CPU per call ${times(scaling.cpu8)} @8, ${times(scaling.cpu64)} @64.` +
          (shares?.every((share) => share !== undefined) ? ` CPU shares of the three replicas @64: ${shares.map((share) => `${Math.round(share * 100)} %`).join(' / ')}.` : ''),
      );
    }
    out.push('');
  }
  return `${out.join('\n')}\n`;
}

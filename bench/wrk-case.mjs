/**
 * The wrk gateway case (issue 17): which rows and scenarios run, wrk itself (installed from Debian when
 * missing), and the summary and table of the case. Every ratio is paired: a row against the floor
 * forwarder of the same repetition and scenario (cost ratios, > 1× is worse; for calls/s floor ÷ row),
 * then the median over the repetitions.
 */

import { spawnSync } from 'node:child_process';
import { aptInstall } from './apt-install.mjs';
import { median, valueAt } from './case-stats.mjs';

export const WRK_GATEWAYS = ['floor', 'switchboard', 'supergateway', 'mcp-proxy'];
export const WRK_SCENARIOS = ['2025', '2026', 'list', 'sessions'];
/** The heading of the case's section in the report (and in docs/benchmarks.md). */
export const WRK_SECTION = '## Gateway case: wrk against the gateway itself (issue 17)';
const LABELS = { floor: 'floor (bare forwarder)', switchboard: 'switchboard serve', supergateway: 'supergateway --stateful', 'mcp-proxy': 'mcp-proxy (stream)' };

/** Makes sure `wrk` runs here: `apt-get install wrk` when it is missing (as root, or through sudo). */
export function ensureWrk() {
  if (spawnSync('wrk', ['--version']).error === undefined) return;
  process.stderr.write('wrk is missing: installing it with apt-get (Debian package wrk)\n');
  aptInstall('wrk');
}

const FIGURES = [
  { key: 'c8.callsPerSecond', label: 'calls/s @8', rate: true },
  { key: 'c64.callsPerSecond', label: 'calls/s @64', rate: true },
  { key: 'c8.cpuUsPerCall', label: 'CPU µs/call @8' },
  { key: 'c64.cpuUsPerCall', label: 'CPU µs/call @64' },
  { key: 'c1.p50Us', label: 'p50 µs @1' },
  { key: 'c1.p99Us', label: 'p99 µs @1' },
  { key: 'c1Fixed.p50Us', label: 'p50 µs @1, fixed CPUs' },
  { key: 'c1Polling.p50Us', label: 'p50 µs @1, idle CPUs polling' },
  { key: 'c64.p50Us', label: 'p50 µs @64' },
  { key: 'c64.p99Us', label: 'p99 µs @64' },
];

/** Medians and paired ratios to the floor, per scenario and row; the listing and session figures; the targets. */
export function summarizeWrk(wrkRuns) {
  const ok = (run) => run.error === undefined && run.skipped === undefined;
  const of = (gateway, scenario) => wrkRuns.filter((run) => run.gateway === gateway && run.scenario === scenario);
  const floorOf = (scenario, rep) => wrkRuns.find((run) => run.gateway === 'floor' && run.scenario === scenario && run.rep === rep && ok(run));
  const rows = {};
  const notMeasured = {};
  for (const scenario of ['2025', '2026']) {
    rows[scenario] = {};
    for (const gateway of WRK_GATEWAYS) {
      const runs = of(gateway, scenario);
      if (runs.length === 0) continue;
      const good = runs.filter(ok);
      const row = { skipped: runs.find((run) => run.skipped !== undefined)?.skipped, failures: runs.filter((run) => run.error !== undefined).map((run) => run.error.split('\n')[0]), figures: {} };
      row.errors = good.reduce((sum, run) => sum + (run.c1?.errors ?? 0) + (run.c1Fixed?.errors ?? 0) + (run.c1Polling?.errors ?? 0) + (run.c8?.errors ?? 0) + (run.c64?.errors ?? 0), 0);
      for (const figure of FIGURES) {
        const ratios = good.map((run) => {
          const base = valueAt(floorOf(scenario, run.rep), figure.key);
          const value = valueAt(run, figure.key);
          if (!(base > 0) || !(value > 0)) return Number.NaN;
          return figure.rate ? base / value : value / base;
        });
        row.figures[figure.key] = { value: median(good.map((run) => valueAt(run, figure.key))), ratio: median(ratios) };
      }
      rows[scenario][gateway] = row;
    }
    // A one-connection pass this machine cannot make (no taskset, no writable /dev/cpu_dma_latency): said under the table.
    const passes = [['c1FixedSkipped', 'fixed CPUs'], ['c1PollingSkipped', 'idle CPUs polling']];
    notMeasured[scenario] = passes.map(([key, what]) => [what, wrkRuns.find((run) => run.scenario === scenario && run[key] !== undefined)?.[key]]).filter(([, why]) => why !== undefined);
  }
  const list = {};
  for (const gateway of WRK_GATEWAYS) {
    const good = of(gateway, 'list').filter(ok);
    if (good.length === 0) continue;
    list[gateway] = { gatewayUs: median(good.map((run) => run.listGatewayP50Us)), directUs: median(good.map((run) => run.listDirectP50Us)), ratio: median(good.map((run) => run.listGatewayP50Us / run.listDirectP50Us)), tools: good[0].listTools };
  }
  const sessionRuns = of('switchboard', 'sessions').filter(ok);
  const sessions = sessionRuns.length === 0 ? undefined : { rssPerSessionKiB: median(sessionRuns.map((run) => run.rssPerSessionKiB)), rssPerSessionAt1sKiB: median(sessionRuns.map((run) => run.rssPerSessionAt1sKiB)), sessions: sessionRuns[0].sessions, capStatus: sessionRuns[0].capStatus, capMessage: sessionRuns[0].capMessage };
  return { rows, notMeasured, list, sessions, targets: targetsOf(rows, list, sessions) };
}

function targetsOf(rows, list, sessions) {
  const targets = [];
  for (const scenario of ['2025', '2026']) {
    const ours = rows[scenario]?.switchboard;
    if (ours === undefined || ours.figures === undefined) continue;
    const ratio = (key) => ours.figures[key]?.ratio;
    const cpu = Math.max(ratio('c8.cpuUsPerCall') ?? Number.NaN, ratio('c64.cpuUsPerCall') ?? Number.NaN);
    targets.push({ name: `${scenario}: gateway CPU/call ≤ 2.0× floor (worse of @8, @64)`, value: cpu, met: cpu <= 2.0 });
    for (const connections of [8, 64]) {
      const rate = ratio(`c${connections}.callsPerSecond`);
      targets.push({ name: `${scenario}: calls/s @${connections} ≥ 0.6× floor`, value: rate === undefined ? undefined : 1 / rate, met: rate !== undefined && 1 / rate >= 0.6 });
    }
    targets.push({ name: `${scenario}: p50 @1 ≤ 1.3× floor (CPUs as the scheduler places them)`, value: ratio('c1.p50Us'), met: ratio('c1.p50Us') <= 1.3 });
    targets.push({ name: `${scenario}: p50 @1 ≤ 1.3× floor (fixed CPUs: wrk on one, the row on the other)`, value: ratio('c1Fixed.p50Us'), met: ratio('c1Fixed.p50Us') <= 1.3 });
    targets.push({ name: `${scenario}: p50 @1 ≤ 1.3× floor (idle CPUs held polling: no halted vCPU to wake)`, value: ratio('c1Polling.p50Us'), met: ratio('c1Polling.p50Us') <= 1.3 });
    targets.push({ name: `${scenario}: 0 errors`, value: ours.errors, met: ours.errors === 0 && ours.failures.length === 0, count: true });
    const peers = ['supergateway', 'mcp-proxy'].map((peer) => rows[scenario]?.[peer]).filter((peer) => peer !== undefined && peer.skipped === undefined);
    if (peers.length > 0) {
      const behind = FIGURES.filter((figure) =>
        peers.some((peer) => {
          const mine = ours.figures[figure.key]?.value;
          const theirs = peer.figures[figure.key]?.value;
          if (mine === undefined || theirs === undefined) return false;
          return figure.rate ? mine < theirs : mine > theirs;
        }),
      );
      targets.push({ name: `${scenario}: ahead of supergateway and mcp-proxy on every figure`, value: behind.length === 0 ? 'yes' : `behind on ${behind.map((figure) => figure.label).join(', ')}`, met: behind.length === 0, text: true });
    }
  }
  if (list.switchboard !== undefined) targets.push({ name: 'tools/list of 1,003 tools ≤ 1.5× direct', value: list.switchboard.ratio, met: list.switchboard.ratio <= 1.5 });
  if (sessions !== undefined) {
    targets.push({ name: 'RSS per idle 2025-era session ≤ 20 KiB', value: sessions.rssPerSessionKiB, met: sessions.rssPerSessionKiB <= 20, unit: 'KiB' });
    targets.push({ name: 'per-user session cap holds (429)', value: sessions.capStatus, met: sessions.capStatus === 429, count: true });
  }
  return targets;
}

function format(value, digits = 0) {
  if (value === undefined || !Number.isFinite(value)) return '–';
  return value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(digits === 0 && value < 10 ? 1 : digits);
}
const ratioText = (ratio) => (ratio === undefined || !Number.isFinite(ratio) ? '' : ` (${ratio.toFixed(2)}×)`);

/** The markdown section of the case. */
export function renderWrk(summary) {
  const out = [`\n${WRK_SECTION}\n`];
  out.push('wrk (one thread) POSTs `tools/call echo` at 1, 8 and 64 connections, each request under an id of its own (MCP never reuses an id within a session). In the two calls scenarios every row runs at once, each in front of its own echo server, and the rows take turns in 1 s wrk windows, 4 per row and connection count (2 with --quick), the order rotated each round: a row and the floor it is paired with see the same minute of this noisy machine. calls/s and CPU per call are over a row\'s windows, p50/p99 the median of its windows\'. CPU is the gateway process\'s own (/proc/PID/stat, the upstream excluded). Each cell: median over the repetitions and, in brackets, the median of the paired ratios to the floor forwarder (cost; > 1× is worse, for calls/s floor ÷ row). An error is a non-200 answer, one without the echoed text, or a socket error. *p50 @1, fixed CPUs*: one connection again, interleaved the same way, with wrk on CPU 0 and the row\'s whole process tree (gateway, its threads, its upstream) on CPU 1. At one connection a call is four wake-ups in a row; here an idle vCPU halts at once and waking it costs 30–50 µs, so with free placement a row\'s p50 depends on how many of the four the scheduler sends across CPUs, which changes from window to window (bench/README.md, eighth pass). Fixed, every row pays the same two. *p50 @1, idle CPUs polling*: one connection once more, free placement, with a PM QoS request of 0 µs held on /dev/cpu_dma_latency for those windows only (as cyclictest does), so an idle CPU polls instead of halting and no wake-up pays a VM exit; what is left is the rows\' own path and the kernel\'s (bench/README.md, ninth pass).\n');
  for (const [scenario, rows] of Object.entries(summary.rows)) {
    if (Object.keys(rows).length === 0) continue;
    out.push(`### ${scenario === '2025' ? '2025-era session (initialize once, then calls with Mcp-Session-Id)' : '2026-07-28 stateless requests'}\n`);
    out.push(`| row | ${FIGURES.map((figure) => figure.label).join(' | ')} | errors |`);
    out.push(`| --- | ${FIGURES.map(() => '---:').join(' | ')} | ---: |`);
    for (const [gateway, row] of Object.entries(rows)) {
      if (row.skipped !== undefined) out.push(`| ${LABELS[gateway]} | skipped: ${row.skipped} |${FIGURES.map(() => ' |').join('')}`);
      else if (row.figures[FIGURES[0].key].value === undefined) out.push(`| ${LABELS[gateway]} | failed: ${row.failures[0] ?? '?'} |${FIGURES.map(() => ' |').join('')}`);
      else out.push(`| ${LABELS[gateway]} | ${FIGURES.map((figure) => `${format(row.figures[figure.key].value)}${gateway === 'floor' ? '' : ratioText(row.figures[figure.key].ratio)}`).join(' | ')} | ${row.errors}${row.failures.length > 0 ? ` + ${row.failures.length} failed runs` : ''} |`);
    }
    for (const [what, why] of summary.notMeasured?.[scenario] ?? []) out.push(`\n*p50 µs @1, ${what}* not measured: ${why}.`);
    out.push('');
  }
  if (Object.keys(summary.list).length > 0) {
    out.push('### tools/list of a 1,003-tool upstream (2025 session, sequential, lean Node client parsing the answer)\n');
    out.push('| row | through the gateway p50 µs | same listing direct (stdio pipe) p50 µs | ratio |\n| --- | ---: | ---: | ---: |');
    for (const [gateway, row] of Object.entries(summary.list)) out.push(`| ${LABELS[gateway]} | ${format(row.gatewayUs)} | ${format(row.directUs)} | ${row.ratio.toFixed(2)}× |`);
    out.push('');
  }
  if (summary.sessions !== undefined) {
    const { sessions } = summary;
    out.push(`### Idle 2025-era sessions\n\n${sessions.sessions} sessions opened with a lean client (8 keep-alive sockets): **${format(sessions.rssPerSessionKiB, 1)} KiB** of gateway RSS per session once idle (RSS settled, ≤ 15 s; ${format(sessions.rssPerSessionAt1sKiB, 1)} KiB 1 s after the last one opened; RSS of the \`serve\` process without a forced GC, so garbage V8 has not collected yet counts too — \`node --expose-gc bench/session-heap.mjs [--wake]\` measures what a session retains after a full GC; a plain \`initialize\` builds no SDK server, so the sessions are dormant from the start). The next one past \`maxSessionsPerUser\` is answered ${sessions.capStatus}: “${sessions.capMessage ?? '?'}”.\n`);
  }
  if (summary.targets.length > 0) {
    out.push('### Targets (issue 17)\n\n| target | measured | met |\n| --- | ---: | :---: |');
    for (const target of summary.targets) {
      const value = target.text || target.count ? String(target.value) : target.unit === 'KiB' ? `${format(target.value, 1)} KiB` : Number.isFinite(target.value) ? `${target.value.toFixed(2)}×` : '–';
      out.push(`| ${target.name} | ${value} | ${target.met ? 'yes' : '**no**'} |`);
    }
  }
  return `${out.join('\n')}\n`;
}

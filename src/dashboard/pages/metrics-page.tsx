/**
 * @module dashboard/pages/metrics-page
 * Latency and calls over time, per server and per tool, from `GET /api/stats` (10-second buckets,
 * the last 10 minutes), with the totals in tables.
 */

import { useState } from 'preact/hooks';
import type { CallStats } from '../../contract/api-contract.js';
import { Problem, StaleNotice } from '../components/problem.js';
import { TimeChart, type ChartLine } from '../components/time-chart.js';
import { seriesOf, type Measure } from '../model/chart-paths.js';
import { formatDuration, formatPercent } from '../model/format.js';
import { refusalSummary, refusalsOfNoServer } from '../model/refusal-summary.js';
import { useSession } from '../state/session.js';
import { useLoader } from '../state/use-loader.js';

/** Reload the stats while the page is open. @default 5000 */
export const METRICS_REFRESH_MS = 5_000;

const formatCalls = (value: number): string => (Number.isInteger(value) ? String(value) : value.toFixed(1));

function linesOf(rows: ReadonlyArray<{ label: string; stats: CallStats }>, measure: Measure, now: number): ChartLine[] {
  return rows.map((row) => ({ label: row.label, series: seriesOf(row.stats.timeline, measure, now) }));
}

function StatsTable({ caption, rows }: { caption: string; rows: ReadonlyArray<{ label: string; stats: CallStats }> }) {
  return (
    <div class="table-scroll">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Calls</th>
            <th scope="col">Errors</th>
            <th scope="col">Refused</th>
            <th scope="col">Error rate</th>
            <th scope="col">p50</th>
            <th scope="col">p95</th>
            <th scope="col">p99</th>
            <th scope="col">In flight</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ label, stats }) => {
            const refused = refusalSummary(stats.refused);
            // Refused calls were never sent: they have no latency.
            const timed = stats.latency.count > 0;
            return (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td>{stats.calls}</td>
                <td>{stats.calls - stats.ok}</td>
                <td title={refused.byCode === '' ? undefined : `refused before sending: ${refused.byCode}`}>{refused.total}</td>
                <td class={stats.errorRate > 0 ? 'text-bad' : undefined}>{formatPercent(stats.errorRate)}</td>
                <td>{timed ? formatDuration(stats.latency.p50) : '–'}</td>
                <td>{timed ? formatDuration(stats.latency.p95) : '–'}</td>
                <td>{timed ? formatDuration(stats.latency.p99) : '–'}</td>
                <td>{stats.inFlight}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function MetricsPage() {
  const { api } = useSession();
  const stats = useLoader(() => api.stats(), ['tool-call-end', 'tool-call-refused'], METRICS_REFRESH_MS);
  const [server, setServer] = useState('');
  const now = Date.now();
  const servers = stats.data?.servers ?? [];
  const serverRows = servers.map((item) => ({ label: item.server, stats: item }));
  const toolRows = servers
    .filter((item) => server === '' || item.server === server)
    .flatMap((item) => item.tools.map((tool) => ({ label: server === '' ? `${tool.server}/${tool.tool}` : tool.tool, stats: tool })))
    .filter((row) => row.stats.calls > 0)
    .sort((a, b) => b.stats.calls - a.stats.calls);
  const noServer = refusalSummary(stats.data === undefined ? undefined : refusalsOfNoServer(stats.data));
  // The busiest tools only: more lines than colours cannot be told apart.
  const chartedTools = toolRows.slice(0, 8);

  return (
    <>
      <Problem error={stats.data === undefined ? stats.error : undefined} />
      <StaleNotice error={stats.error} shown={stats.data !== undefined} />
      {stats.data === undefined && stats.loading ? <p class="muted">Loading metrics…</p> : null}
      {stats.data?.replicas === undefined ? null : (
        <p class="muted" data-testid="metrics-replicas">
          Added up over {stats.data.replicas} gateway {stats.data.replicas === 1 ? 'replica' : 'replicas'}.
        </p>
      )}
      <section aria-labelledby="metrics-servers">
        <h2 id="metrics-servers">By server</h2>
        <div class="chart-grid">
          <TimeChart title="Calls per 10 s" measure="calls" lines={linesOf(serverRows, 'calls', now)} format={formatCalls} />
          <TimeChart title="p95 latency" measure="p95" lines={linesOf(serverRows, 'p95', now)} format={formatDuration} />
          <TimeChart title="p50 latency" measure="p50" lines={linesOf(serverRows, 'p50', now)} format={formatDuration} />
          <TimeChart title="Error rate" measure="error rate" lines={linesOf(serverRows, 'errorRate', now)} format={formatPercent} />
        </div>
        <StatsTable caption="Totals per server since the gateway started" rows={serverRows} />
        {noServer.total === 0 ? null : (
          <p class="muted" data-testid="refused-no-server">
            Refused calls to names no server has: {noServer.byCode}
          </p>
        )}
      </section>
      <section aria-labelledby="metrics-tools">
        <div class="section-head">
          <h2 id="metrics-tools">By tool</h2>
          <div class="field compact">
            <label for="metrics-server">Server</label>
            <select id="metrics-server" value={server} onChange={(event) => setServer(event.currentTarget.value)}>
              <option value="">All servers</option>
              {servers.map((item) => (
                <option key={item.server} value={item.server}>
                  {item.server}
                </option>
              ))}
            </select>
          </div>
        </div>
        {toolRows.length === 0 ? (
          <p class="empty">No calls yet{server === '' ? '' : ` to ${server}`}.</p>
        ) : (
          <>
            <div class="chart-grid">
              <TimeChart title="Calls per 10 s, busiest tools" measure="calls" lines={linesOf(chartedTools, 'calls', now)} format={formatCalls} />
              <TimeChart title="p95 latency, busiest tools" measure="p95" lines={linesOf(chartedTools, 'p95', now)} format={formatDuration} />
            </div>
            <StatsTable caption="Totals per tool" rows={toolRows} />
          </>
        )}
      </section>
    </>
  );
}

/**
 * @module dashboard/components/time-chart
 * A line chart over the last minutes, one line per series, with axes, a legend, and a table of the
 * same numbers for people who cannot see the chart.
 */

import { linePath, lonePoints, maxOf, niceMax, type Series } from '../model/chart-paths.js';

/** One line of a chart. */
export interface ChartLine {
  label: string;
  series: Series;
}

const WIDTH = 480;
const HEIGHT = 140;
const LEFT = 48;
const BOTTOM = 20;
const TOP = 8;
/** Line colours, told apart by the legend too (never by colour alone). */
export const PALETTE = ['#1f5fbf', '#b3261e', '#2e7d32', '#8e44ad', '#b35c00', '#00838f', '#6d4c41', '#c2185b'];

export interface TimeChartProps {
  title: string;
  lines: readonly ChartLine[];
  format: (value: number) => string;
  /** What a value is, for the data table (`calls`, `p95 latency`). */
  measure: string;
}

export function TimeChart({ title, lines, format, measure }: TimeChartProps) {
  const plot = { width: WIDTH - LEFT - 8, height: HEIGHT - BOTTOM - TOP };
  const max = niceMax(maxOf(lines.map((line) => line.series)));
  const first = lines[0]?.series;
  const minutes = first === undefined ? 10 : Math.round((first.values.length * first.bucketMs) / 60_000);
  const totals = lines.map((line) => {
    const values = line.series.values.filter((value): value is number => value !== null);
    return { label: line.label, last: values.at(-1), peak: values.length === 0 ? undefined : Math.max(...values) };
  });
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`${title}, last ${minutes} minutes. ${totals.map((total) => `${total.label}: peak ${total.peak === undefined ? 'none' : format(total.peak)}`).join('; ')}`}>
        <g transform={`translate(${LEFT} ${TOP})`}>
          {[0, 0.5, 1].map((fraction) => (
            <g key={fraction}>
              <line x1="0" x2={plot.width} y1={plot.height * (1 - fraction)} y2={plot.height * (1 - fraction)} class="grid" />
              <text x="-6" y={plot.height * (1 - fraction) + 4} text-anchor="end" class="tick">
                {format(max * fraction)}
              </text>
            </g>
          ))}
          <text x="0" y={plot.height + 15} class="tick">
            −{minutes} min
          </text>
          <text x={plot.width} y={plot.height + 15} text-anchor="end" class="tick">
            now
          </text>
          {lines.map((line, index) => (
            <g key={line.label} stroke={PALETTE[index % PALETTE.length]} fill={PALETTE[index % PALETTE.length]}>
              <path d={linePath(line.series, plot, max)} fill="none" stroke-width="2" stroke-linejoin="round" stroke-linecap="round" />
              {lonePoints(line.series, plot, max).map((point) => (
                <circle key={point.index} cx={point.x} cy={point.y} r="3" stroke="none" />
              ))}
            </g>
          ))}
        </g>
      </svg>
      {lines.length === 0 ? <p class="muted small">No data yet.</p> : null}
      <ul class="legend">
        {lines.map((line, index) => (
          <li key={line.label}>
            <span class="swatch" style={{ background: PALETTE[index % PALETTE.length] }} aria-hidden="true" />
            {line.label}
          </li>
        ))}
      </ul>
      <details class="chart-data">
        <summary>Numbers</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Series</th>
              <th scope="col">Latest {measure}</th>
              <th scope="col">Peak {measure}</th>
            </tr>
          </thead>
          <tbody>
            {totals.map((total) => (
              <tr key={total.label}>
                <th scope="row">{total.label}</th>
                <td>{total.last === undefined ? '–' : format(total.last)}</td>
                <td>{total.peak === undefined ? '–' : format(total.peak)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

/**
 * @module dashboard/model/format
 * Numbers and times in the words the dashboard shows.
 */

/** `0.4 ms`, `12 ms`, `1.3 s`, `2 min 5 s`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '–';
  if (ms < 10) return `${Math.round(ms * 10) / 10} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${Math.round(ms / 100) / 10} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return seconds === 0 ? `${minutes} min` : `${minutes} min ${seconds} s`;
}

/** How long since `since`: `45 s`, `12 min`, `3 h 4 min`, `2 d 5 h`. */
export function formatUptime(since: number, now: number): string {
  const seconds = Math.max(0, Math.floor((now - since) / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** A rate in 0..1 as a percentage: `0 %`, `0.5 %`, `12 %`. */
export function formatPercent(rate: number): string {
  if (!Number.isFinite(rate)) return '–';
  const percent = rate * 100;
  if (percent === 0) return '0 %';
  return percent < 1 ? `${Math.round(percent * 10) / 10} %` : `${Math.round(percent)} %`;
}

/** A clock time `14:03:09` (local). */
export function formatClock(time: number): string {
  const date = new Date(time);
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** A count and its noun, singular for one: `1 call`, `0 calls`, `3 entries` (with `plural`). */
export function formatCount(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

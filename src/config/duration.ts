/**
 * @module config/duration
 * Durations in config files: a number is seconds (as in the YAML examples people already use);
 * a string may carry a unit: `"500ms"`, `"10s"`, `"2m"`, `"1h"`.
 */

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION_PATTERN = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/;

/** Milliseconds for a config duration, or an error message that says what is accepted. */
export function parseDuration(value: unknown): { ms: number } | { error: string } {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return { error: `must be a non-negative number of seconds, got ${value}` };
    return { ms: Math.round(value * 1000) };
  }
  if (typeof value === 'string') {
    const match = DURATION_PATTERN.exec(value);
    if (match !== null) {
      const amount = Number(match[1]);
      const unit = match[2] ?? 's';
      return { ms: Math.round(amount * (UNIT_MS[unit] ?? 1000)) };
    }
    return { error: `"${value}" is not a duration; write a number of seconds (10) or a string with a unit ("500ms", "10s", "2m")` };
  }
  return { error: `must be a number of seconds or a string like "500ms", got ${typeof value}` };
}

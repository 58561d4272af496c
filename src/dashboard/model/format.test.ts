import { describe, expect, it } from 'vitest';
import { tokenFromFragment } from '../api/login-token.js';
import { formatDuration, formatPercent, formatUptime } from './format.js';

describe('format', () => {
  it('says durations, uptimes and rates in short words', () => {
    expect([0.42, 12.4, 999, 1250, 125_000, -1].map(formatDuration)).toEqual(['0.4 ms', '12 ms', '999 ms', '1.3 s', '2 min 5 s', '–']);
    expect([0, 59_999, 60_000, 3_900_000, 90_000_000].map((ms) => formatUptime(0, ms))).toEqual(['0 s', '59 s', '1 min', '1 h 5 min', '1 d 1 h']);
    expect([0, 0.004, 0.123, Number.NaN].map(formatPercent)).toEqual(['0 %', '0.4 %', '12 %', '–']);
  });
});

describe('tokenFromFragment', () => {
  it('reads the one-time login link', () => {
    expect(tokenFromFragment('#token=sb_abc_123')).toBe('sb_abc_123');
    expect(tokenFromFragment('#x=1&token=sb%2Fx')).toBe('sb/x');
    expect(tokenFromFragment('#/servers')).toBeUndefined();
    expect(tokenFromFragment('#token=')).toBeUndefined();
    // A chosen token in base64: `+` reads as a space unless the link encodes it (as `switchboard serve` does).
    const chosen = 'Ab+cD/ef==';
    expect(tokenFromFragment(`#token=${chosen}`)).not.toBe(chosen);
    expect(tokenFromFragment(`#token=${encodeURIComponent(chosen)}`)).toBe(chosen);
  });
});

import { describe, expect, test } from 'vitest';
import { parseDuration } from './duration.js';

describe('parseDuration', () => {
  test.each([
    [10, 10_000],
    [0.5, 500],
    ['500ms', 500],
    ['10s', 10_000],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['15', 15_000],
    [' 1.5 s ', 1_500],
  ])('%j is %d ms', (input, expected) => {
    expect(parseDuration(input)).toEqual({ ms: expected });
  });

  test.each([[-1], [Number.NaN], ['ten seconds'], ['5 days'], [true], [{}]])('%j is refused with a hint', (input) => {
    const result = parseDuration(input);
    expect(result).toHaveProperty('error');
    expect('error' in result && result.error).toMatch(/seconds|duration/);
  });
});

import { expect, test } from 'vitest';
import { checkShortOptions } from './check-short-options.js';

test('a bundled short option is refused with how to pass a dash value; -h, -v, long options and anything after -- pass', () => {
  expect(() => checkShortOptions(['approvals', 'approve', '-B-s0Hhkl'])).toThrow(/"-B…" is not an option .* --option=VALUE, and a positional one goes after "--"/);
  expect(() => checkShortOptions(['approvals', 'approve', '-B-s0Hhkl'])).not.toThrow(/s0Hhkl/);
  for (const fine of [['-h'], ['-v'], ['call', '--args={"a":1}'], ['templates', 'add', 'x', '--arg=-y'], ['approvals', 'approve', '--', '-B-s0H'], ['-']]) {
    expect(() => checkShortOptions(fine)).not.toThrow();
  }
});

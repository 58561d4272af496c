import { expect, test } from 'vitest';
import { REDACTED, redactHeaders, redactSecrets } from './redact.js';

test('credential headers are masked, others kept', () => {
  expect(redactHeaders({ Authorization: 'Bearer abc', 'X-Api-Key': 'k', 'X-Session-Token': 't', Accept: 'json' })).toEqual({
    Authorization: REDACTED,
    'X-Api-Key': REDACTED,
    'X-Session-Token': REDACTED,
    Accept: 'json',
  });
});

test('secret values are replaced wherever they appear, also JSON-escaped', () => {
  const secret = 'p@ss"word\\1';
  const text = JSON.stringify({ a: `value ${secret}`, b: 'plain' });
  const redacted = redactSecrets(text, [secret, 'ab']);
  expect(redacted).not.toContain('ss\\"word');
  expect(redacted).toContain(REDACTED);
  expect(redacted).toContain('plain');
});

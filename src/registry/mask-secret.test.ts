import { expect, test } from 'vitest';
import { maskSecret, maskUrl, maskValues, urlHasCredentials } from './mask-secret.js';

test('long values keep their last four characters, short ones nothing', () => {
  expect(maskSecret('sk-live-0123456789abcdef')).toBe('••••cdef');
  expect(maskSecret('short-secret')).toBe('••••');
  expect(maskSecret('')).toBe('••••');
  expect(maskValues({ A: 'x', B: 'abcdefghijklmnopqrstuvwxyz' })).toEqual({ A: '••••', B: '••••wxyz' });
});

test('URLs lose passwords and credential-looking query values', () => {
  expect(maskUrl('https://user:pa55@example.com/mcp?api_key=abc&region=eu&token=t')).toBe('https://user:xxxx@example.com/mcp?api_key=xxxx&region=eu&token=xxxx');
  expect(maskUrl('not a url')).toBe('not a url');
  expect(urlHasCredentials('https://example.com/mcp?region=eu')).toBe(false);
  expect(urlHasCredentials('https://example.com/mcp?access_token=x')).toBe(true);
  expect(urlHasCredentials('https://u:p@example.com/')).toBe(true);
});

import { expect, test } from 'vitest';
import { checkRedirectUris } from './redirect-policy.js';

test('https anywhere, http only on loopback (any port), private-use schemes; never fragments or script schemes', () => {
  expect(checkRedirectUris(['https://claude.ai/api/mcp/auth_callback', 'http://127.0.0.1:33418/', 'http://localhost/cb', 'http://[::1]:9/cb', 'cursor://anysphere.cursor-retrieval/oauth/callback'], {})).toBeUndefined();
  expect(checkRedirectUris(['http://10.0.0.1/cb'], {})).toMatch(/not loopback/);
  expect(checkRedirectUris(['https://a.example/cb#x'], {})).toMatch(/fragment/);
  expect(checkRedirectUris(['javascript:alert(1)'], {})).toMatch(/forbidden scheme/);
  expect(checkRedirectUris(['not a url'], {})).toMatch(/not a URL/);
  expect(checkRedirectUris([], {})).toMatch(/non-empty/);
});

test('an admin list of redirect hosts restricts https (exact or *.domain), never loopback', () => {
  const policy = { redirectHosts: ['claude.ai', '*.example.com'] };
  expect(checkRedirectUris(['https://claude.ai/cb', 'https://app.example.com/cb', 'http://127.0.0.1:5/cb'], policy)).toBeUndefined();
  expect(checkRedirectUris(['https://evil.example/cb'], policy)).toMatch(/does not allow/);
  expect(checkRedirectUris(['https://example.com.evil.example/cb'], policy)).toMatch(/does not allow/);
});

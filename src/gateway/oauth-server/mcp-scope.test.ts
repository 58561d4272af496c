import { expect, test } from 'vitest';
import { scopeNeededFor, scopesAllow } from './mcp-scope.js';

test('listing needs mcp:read; calling, reading resources and unknown bodies need mcp', () => {
  const body = (value: unknown) => ({ value });
  expect(scopeNeededFor('POST', body({ jsonrpc: '2.0', id: 1, method: 'tools/list' }))).toBe('mcp:read');
  expect(scopeNeededFor('POST', body([{ method: 'initialize' }, { method: 'notifications/initialized' }, { result: {} }]))).toBe('mcp:read');
  expect(scopeNeededFor('POST', body({ method: 'tools/call' }))).toBe('mcp');
  expect(scopeNeededFor('POST', body([{ method: 'tools/list' }, { method: 'tools/call' }]))).toBe('mcp');
  expect(scopeNeededFor('POST', body({ method: 'resources/read' }))).toBe('mcp');
  expect(scopeNeededFor('POST', body('nonsense'))).toBe('mcp');
  expect(scopeNeededFor('POST', undefined)).toBe('mcp');
  expect(scopeNeededFor('GET', undefined)).toBe('mcp:read');
});

test('mcp allows everything, mcp:read only reading, a static token (no scopes) everything', () => {
  expect(scopesAllow(['mcp'], 'mcp')).toBe(true);
  expect(scopesAllow(['mcp:read'], 'mcp:read')).toBe(true);
  expect(scopesAllow(['mcp:read'], 'mcp')).toBe(false);
  expect(scopesAllow([], 'mcp:read')).toBe(false);
  expect(scopesAllow(undefined, 'mcp')).toBe(true);
});

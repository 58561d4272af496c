import { describe, expect, test } from 'vitest';
import { entryDepthIssue, MAX_ENTRY_DEPTH } from './entry-depth.js';
import { normalizeConfig } from './normalize-config.js';

function nested(levels: number): unknown {
  let value: unknown = 'x';
  for (let index = 0; index < levels; index++) value = [value];
  return value;
}

describe('entry depth', () => {
  test('names the first place past the limit; the limit itself is accepted', () => {
    expect(entryDepthIssue({ a: nested(MAX_ENTRY_DEPTH - 1) }, 'servers.s')).toBeUndefined();
    expect(entryDepthIssue({ a: nested(MAX_ENTRY_DEPTH) }, 'servers.s')).toMatchObject({ path: `servers.s.a${'.0'.repeat(MAX_ENTRY_DEPTH - 1)}`, message: `is nested more than ${MAX_ENTRY_DEPTH} levels deep` });
  });

  test('a config file with a 100,000-level entry is a config issue, not a stack overflow', () => {
    expect(() => normalizeConfig({ mcpServers: { deep: { url: 'https://example.com/mcp', headers: { x: nested(100_000) } } } })).toThrow(`mcpServers.deep.headers.x${'.0'.repeat(MAX_ENTRY_DEPTH - 2)}: is nested more than ${MAX_ENTRY_DEPTH} levels deep`);
  });
});

import { describe, expect, it } from 'vitest';
import { formatCount } from './format.js';
import { descriptionBesideServer } from './tool-description.js';

describe('descriptionBesideServer', () => {
  it('drops the `[server]` prefix the catalog adds for agents, since the server is shown beside it', () => {
    expect(descriptionBesideServer('[everything] Echoes back the input string', 'everything')).toBe('Echoes back the input string');
    expect(descriptionBesideServer('[fs] ', 'fs')).toBeUndefined();
    expect(descriptionBesideServer('[fs]', 'fs')).toBeUndefined();
    expect(descriptionBesideServer(undefined, 'fs')).toBeUndefined();
  });

  it('keeps descriptions that only look alike: another server’s name, or the prefix later in the text', () => {
    expect(descriptionBesideServer('[db] Runs a query', 'fs')).toBe('[db] Runs a query');
    expect(descriptionBesideServer('Reads [fs] files', 'fs')).toBe('Reads [fs] files');
    expect(descriptionBesideServer('[a.b] x', 'a')).toBe('[a.b] x');
  });
});

describe('formatCount', () => {
  it('says one call, not "1 calls"', () => {
    expect([0, 1, 2, 12].map((count) => formatCount(count, 'call'))).toEqual(['0 calls', '1 call', '2 calls', '12 calls']);
    expect(formatCount(1, 'tool')).toBe('1 tool');
    expect(formatCount(3, 'entry', 'entries')).toBe('3 entries');
  });
});

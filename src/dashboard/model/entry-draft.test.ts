import { describe, expect, it } from 'vitest';
import { draftFromEntry, emptyDraft, entryFromDraft } from './entry-draft.js';

describe('entry drafts', () => {
  it('never puts a masked secret in an input, and sends it back masked when untouched', () => {
    const draft = draftFromEntry({ url: 'https://api.example.com/mcp', headers: { 'X-Key': '••••abcd' }, apiKey: '••••', timeout: 20, include: ['a*', 'b'] });
    expect(draft.kind).toBe('url');
    expect(draft.headers).toEqual([{ name: 'X-Key', value: '', stored: '••••abcd' }]);
    expect(draft.apiKey).toEqual({ name: 'apiKey', value: '', stored: '••••' });
    expect(entryFromDraft(draft)).toEqual({ entry: { url: 'https://api.example.com/mcp', headers: { 'X-Key': '••••abcd' }, apiKey: '••••', timeout: 20, include: ['a*', 'b'] } });
    draft.apiKey.value = 'new-key';
    expect(entryFromDraft(draft)).toMatchObject({ entry: { apiKey: 'new-key' } });
  });

  it('builds stdio entries with one argument per line and keeps keys it does not edit', () => {
    const draft = draftFromEntry({ command: 'node', args: ['server.js', '--port', '0'], env: { TOKEN: '••••' }, retry: { attempts: 2 } });
    expect(draft.kind).toBe('stdio');
    draft.args += '\n\n --verbose ';
    expect(entryFromDraft(draft)).toEqual({ entry: { retry: { attempts: 2 }, command: 'node', args: ['server.js', '--port', '0', '--verbose'], env: { TOKEN: '••••' } } });
  });

  it('reports missing fields before anything is sent', () => {
    expect(entryFromDraft(emptyDraft('url'))).toEqual({ issues: [{ path: 'url', message: 'is required (the server’s MCP endpoint, e.g. https://example.com/mcp)' }] });
    expect(entryFromDraft({ ...emptyDraft('url'), url: 'ftp://x' })).toEqual({ issues: [{ path: 'url', message: 'must start with http:// or https://' }] });
    expect(entryFromDraft({ ...emptyDraft('stdio'), command: 'x', env: [{ name: '', value: 'v' }] })).toEqual({ issues: [{ path: 'env', message: 'every value needs a name' }] });
    expect(entryFromDraft({ ...emptyDraft('json'), json: '[]' })).toMatchObject({ issues: [{ path: '' }] });
  });

  it('passes a JSON entry through as it is (the gateway checks it)', () => {
    expect(entryFromDraft({ ...emptyDraft('json'), json: '{"path": "@scope/server"}' })).toEqual({ entry: { path: '@scope/server' } });
    expect(draftFromEntry({ path: '@scope/server' }).kind).toBe('json');
  });

  it('reads template instances', () => {
    const draft = draftFromEntry({ template: 'files', parameters: { folder: 'alice', key: '••••' } });
    expect(draft.kind).toBe('template');
    expect(entryFromDraft(draft)).toEqual({ entry: { template: 'files', parameters: { folder: 'alice', key: '••••' } } });
  });
});

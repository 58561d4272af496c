import { describe, expect, it } from 'vitest';
import type { CatalogTool } from '../../client/multi-server-client.js';
import { endpointTools } from './endpoint-tools.js';

const tool = (server: string, originalName: string, name = originalName, annotations?: CatalogTool['annotations']): CatalogTool => ({
  name,
  server,
  originalName,
  description: `${originalName} of ${server}`,
  inputSchema: { type: 'object' },
  ...(annotations === undefined ? {} : { annotations }),
});
const catalog = [tool('kb', 'search', 'kb_search', { readOnlyHint: true }), tool('web', 'search', 'web_search', { readOnlyHint: true }), tool('kb', 'write', 'write'), tool('files', 'list', 'list', { readOnlyHint: true })];

describe('endpointTools', () => {
  it('without an endpoint lists the catalog as it is', () => {
    expect([...endpointTools(undefined, catalog).keys()]).toEqual(['kb_search', 'web_search', 'write', 'list']);
  });

  it('selects by server glob, tool glob and annotations', () => {
    expect([...endpointTools({ servers: ['kb', 'files'] }, catalog).keys()]).toEqual(['kb_search', 'write', 'list']);
    expect([...endpointTools({ tools: ['*/search'] }, catalog).keys()]).toEqual(['kb_search', 'web_search']);
    expect([...endpointTools({ annotations: { readOnlyHint: true }, servers: ['kb'] }, catalog).keys()]).toEqual(['kb_search']);
  });

  it('renames and overrides descriptions, routing each listed name to its catalog tool', () => {
    const exposed = endpointTools({ renames: { 'files/list': 'browse', kb_search: 'find' }, descriptions: { browse: 'unused key', 'files/list': 'Browse the docs.' } }, catalog);
    expect(exposed.get('browse')?.upstream.name).toBe('list');
    expect(exposed.get('browse')?.tool.description).toBe('Browse the docs.');
    expect(exposed.get('find')?.upstream.name).toBe('kb_search');
    expect(exposed.has('list')).toBe(false);
    expect(exposed.get('write')?.tool.description).toBe('write of kb');
  });

  it('names by strategy, never listing two tools under one name', () => {
    expect([...endpointTools({ naming: 'prefix' }, catalog).keys()]).toEqual(['kb_search', 'web_search', 'kb_write', 'files_list']);
    // `search` is ambiguous: both keep their catalog names; the others get their own names.
    expect([...endpointTools({ naming: 'none' }, catalog).keys()]).toEqual(['kb_search', 'web_search', 'write', 'list']);
    expect([...endpointTools({ naming: 'none', servers: ['kb'] }, catalog).keys()]).toEqual(['search', 'write']);
    // A rename onto another tool's name is not used: both stay listed, under their catalog names.
    const clash = endpointTools({ renames: { 'kb/search': 'list', 'web/search': 'find', write: 'find' } }, catalog);
    expect(clash.get('list')?.upstream.server).toBe('files');
    expect(clash.get('kb_search')?.upstream.server).toBe('kb');
    expect(clash.get('find')?.upstream.server).toBe('web');
    expect(clash.get('write')?.upstream.name).toBe('write');
    expect(clash.size).toBe(4);
  });
});

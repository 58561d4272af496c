import { describe, expect, it } from 'vitest';
import { safeHref, toDataUrl, viewOfResult } from './result-view.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

describe('viewOfResult', () => {
  it('renders each content type by kind', () => {
    const view = viewOfResult({
      isError: false,
      content: [
        { type: 'text', text: 'first' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'memo://one', mimeType: 'text/plain', text: 'embedded text' } },
        { type: 'resource_link', uri: 'memo://two', name: 'two', mimeType: 'text/plain' },
        { type: 'resource_link', uri: 'https://example.com/a', title: 'A page' },
      ],
      structuredContent: { items: 6 },
    });
    expect(view.isError).toBe(false);
    expect(view.parts).toEqual([
      { kind: 'text', text: 'first' },
      { kind: 'image', src: `data:image/png;base64,${PNG}`, mimeType: 'image/png', alt: 'image returned by the tool (image/png)' },
      { kind: 'audio', src: 'data:audio/wav;base64,UklGRg==', mimeType: 'audio/wav' },
      { kind: 'resource', uri: 'memo://one', mimeType: 'text/plain', text: 'embedded text' },
      { kind: 'link', uri: 'memo://two', label: 'two', mimeType: 'text/plain' },
      { kind: 'link', uri: 'https://example.com/a', label: 'A page', href: 'https://example.com/a' },
    ]);
    expect(view.structured).toBe('{\n  "items": 6\n}');
  });

  it('keeps isError, and folds JSON text', () => {
    const view = viewOfResult({ isError: true, content: [{ type: 'text', text: '{"a":1}' }] });
    expect(view).toEqual({ isError: true, parts: [{ kind: 'text', text: '{"a":1}', json: '{\n  "a": 1\n}' }] });
  });

  it('never builds a media URL from a bad MIME type or bad data', () => {
    const view = viewOfResult({
      content: [
        { type: 'image', data: PNG, mimeType: 'text/html' },
        { type: 'image', data: PNG, mimeType: 'image/png;charset=x"><script>' },
        { type: 'image', data: 'not base64!', mimeType: 'image/png' },
        { type: 'audio', data: PNG, mimeType: 'image/png' },
      ],
    });
    expect(view.parts.map((part) => part.kind)).toEqual(['file', 'unknown', 'unknown', 'file']);
    expect(view.parts[0]).toMatchObject({ kind: 'file', href: `data:text/html;base64,${PNG}` });
  });

  it('shows blobs of embedded resources as media or downloads', () => {
    const view = viewOfResult({
      content: [
        { type: 'resource', resource: { uri: 'file:///pic.png', mimeType: 'image/png', blob: PNG } },
        { type: 'resource', resource: { uri: 'file:///data.bin', blob: 'AAEC' } },
      ],
    });
    expect(view.parts[0]).toMatchObject({ kind: 'image', src: `data:image/png;base64,${PNG}` });
    expect(view.parts[1]).toEqual({ kind: 'file', href: 'data:application/octet-stream;base64,AAEC', fileName: 'data.bin', mimeType: 'application/octet-stream', label: 'file:///data.bin' });
  });

  it('shows what it does not know as JSON', () => {
    expect(viewOfResult({ content: [{ type: 'video', url: 'x' }] }).parts).toEqual([{ kind: 'unknown', json: '{\n  "type": "video",\n  "url": "x"\n}' }]);
    expect(viewOfResult('odd').parts).toEqual([{ kind: 'unknown', json: '"odd"' }]);
  });
});

describe('toDataUrl and safeHref', () => {
  it('accept only well-formed MIME types and base64', () => {
    expect(toDataUrl('IMAGE/PNG', 'AAAA')).toBe('data:image/png;base64,AAAA');
    expect(toDataUrl('image/png', 'AA AA\n')).toBe('data:image/png;base64,AAAA');
    expect(toDataUrl('image', 'AAAA')).toBeUndefined();
    expect(toDataUrl('image/png', 'A')).toBeUndefined();
  });

  it('make only http(s) links clickable', () => {
    expect(safeHref('https://example.com')).toBe('https://example.com/');
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
    expect(safeHref('data:text/html,x')).toBeUndefined();
    expect(safeHref('memo://x')).toBeUndefined();
  });
});

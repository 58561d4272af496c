import { expect, test } from 'vitest';
import { MAX_ICONS, MAX_ICON_DATA_URI_CHARS, safeIcons } from './safe-icons.js';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

test('keeps https: and data: image icons, rebuilt from their known fields', () => {
  expect(safeIcons([{ src: 'https://a.example/i.png', mimeType: 'image/png', sizes: ['48x48', 'huge'], theme: 'dark', extra: 1 }, { src: PNG }])).toEqual([
    { src: 'https://a.example/i.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'dark' },
    { src: PNG },
  ]);
});

test.each([
  ['http:', { src: 'http://a.example/i.png' }],
  ['javascript:', { src: 'javascript:alert(1)' }],
  ['file:', { src: 'file:///etc/passwd' }],
  ['credentials in the URL', { src: 'https://user:secret@a.example/i.png' }],
  ['a data: URI of HTML', { src: 'data:text/html;base64,PHNjcmlwdD4=' }],
  ['a non-image mimeType', { src: 'https://a.example/i', mimeType: 'text/html' }],
  ['an oversized data: URI', { src: `data:image/png;base64,${'A'.repeat(MAX_ICON_DATA_URI_CHARS)}` }],
  ['a non-base64 data: URI', { src: 'data:image/svg+xml,<svg onload=alert(1)>' }],
  ['no src', { mimeType: 'image/png' }],
])('drops %s', (_label, icon) => {
  expect(safeIcons([icon])).toBeUndefined();
});

test('keeps a bounded number of icons', () => {
  expect(safeIcons(Array.from({ length: 20 }, () => ({ src: PNG })))).toHaveLength(MAX_ICONS);
  expect(safeIcons('not a list')).toBeUndefined();
});

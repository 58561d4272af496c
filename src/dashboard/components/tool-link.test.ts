import { expect, test } from 'vitest';
import { ToolLink } from './tool-link.js';

/** The text a rendered tree shows (ToolLink uses no hooks, so calling it renders it). */
function textsOf(node: unknown): string[] {
  if (typeof node === 'string' || typeof node === 'number') return [String(node)];
  if (Array.isArray(node)) return node.flatMap(textsOf);
  if (typeof node === 'object' && node !== null && 'props' in node) return textsOf((node as { props: { children?: unknown } }).props.children);
  return [];
}

const tool = { name: 'echo', server: 'everything', originalName: 'echo', description: '[everything] Echoes back the input string', inputSchema: { type: 'object' } };

test('the server’s name is shown once: the description loses the catalog’s `[server]` prefix', () => {
  const texts = textsOf(ToolLink({ tool, href: '#/tools?tool=echo', current: false }));
  expect(texts).toEqual(['echo', 'everything', 'Echoes back the input string']);
});

test('a description that is only the prefix shows nothing', () => {
  expect(textsOf(ToolLink({ tool: { ...tool, description: '[everything]' }, href: '#', current: true }))).toEqual(['echo', 'everything']);
});

import { describe, expect, test } from 'vitest';
import type { StdioServerSpec } from '../../config/server-spec.js';
import { planReconfigure } from './reconfigure-plan.js';

const spec = (name: string, extra: Partial<StdioServerSpec> = {}): StdioServerSpec => ({
  type: 'stdio', name, enabled: true, command: 'node', args: [name], env: {}, inheritEnv: [], protocol: 'auto', startupTimeoutMs: 10_000, callTimeoutMs: 60_000, ...extra,
});

describe('planReconfigure', () => {
  test('sorts every server into added, removed, restarted and unchanged', () => {
    const plan = planReconfigure([spec('a'), spec('b'), spec('c')], [spec('a'), spec('b', { args: ['other'] }), spec('d')]);
    expect(plan).toEqual({ added: ['d'], removed: ['c'], restarted: ['b'], unchanged: ['a'] });
  });

  test('the same config plans nothing but unchanged', () => {
    const servers = [spec('a'), spec('b', { enabled: false })];
    expect(planReconfigure(servers, servers.map((server) => ({ ...server })))).toEqual({ added: [], removed: [], restarted: [], unchanged: ['a', 'b'] });
  });

  test('any field counts as a change, enabling or disabling too', () => {
    expect(planReconfigure([spec('a')], [spec('a', { enabled: false })]).restarted).toEqual(['a']);
    expect(planReconfigure([spec('a')], [spec('a', { prefix: 'x' })]).restarted).toEqual(['a']);
    expect(planReconfigure([spec('a')], [spec('a', { env: { TOKEN: '1' } })]).restarted).toEqual(['a']);
  });

  test('names follow the new order; removed ones the old order', () => {
    const plan = planReconfigure([spec('x'), spec('y'), spec('z')], [spec('c'), spec('b'), spec('a')]);
    expect(plan.added).toEqual(['c', 'b', 'a']);
    expect(plan.removed).toEqual(['x', 'y', 'z']);
  });

  test('from nothing, everything is added; to nothing, everything is removed', () => {
    expect(planReconfigure([], [spec('a')])).toEqual({ added: ['a'], removed: [], restarted: [], unchanged: [] });
    expect(planReconfigure([spec('a')], [])).toEqual({ added: [], removed: ['a'], restarted: [], unchanged: [] });
  });
});

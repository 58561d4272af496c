import { describe, expect, it } from 'vitest';
import { hrefOf, routeOf } from './use-route.js';

describe('routes', () => {
  it('read the page and its parameters from the fragment', () => {
    const route = routeOf('#/tools?server=demo&tool=image');
    expect(route.page).toBe('tools');
    expect(route.params.get('server')).toBe('demo');
    expect(route.params.get('tool')).toBe('image');
    expect(routeOf('').page).toBe('servers');
    expect(routeOf('#/nowhere').page).toBe('servers');
    expect(routeOf('#token=abc').page).toBe('servers');
  });

  it('write fragments without empty parameters', () => {
    expect(hrefOf('tools', { q: '', server: 'my server', tool: 'a&b' })).toBe('#/tools?server=my+server&tool=a%26b');
    expect(hrefOf('metrics')).toBe('#/metrics');
    expect(routeOf(hrefOf('tools', { tool: 'a&b' })).params.get('tool')).toBe('a&b');
  });
});

import { afterEach, expect, test, vi } from 'vitest';
import { loadOidcProvider, runtimeNotice, UNSUPPORTED_RUNTIME_NOTICE } from './load-oidc-provider.js';

afterEach(() => {
  vi.restoreAllMocks();
});

test('loading oidc-provider prints no runtime notice, and leaves console.warn as it was', async () => {
  const warnings: unknown[][] = [];
  const spy = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args));
  const { Provider, errors } = await loadOidcProvider();
  expect(typeof Provider).toBe('function');
  expect(typeof errors.InvalidTarget).toBe('function');
  expect(warnings.filter((args) => String(args[0]).includes(UNSUPPORTED_RUNTIME_NOTICE))).toEqual([]);
  // Other warnings pass again (the filter is gone).
  console.warn('after');
  expect(warnings).toContainEqual(['after']);
  expect(console.warn).toBe(spy);
});

test('the notice is explained (debug) exactly where oidc-provider would print it: before Node 22 LTS (Jod)', () => {
  expect(runtimeNotice({ lts: 'Iron' })).toMatch(/Node\.js 22 LTS and later as policy/);
  expect(runtimeNotice({ lts: false })).toBeDefined();
  expect(runtimeNotice({ lts: 'Jod' })).toBeUndefined();
  expect(runtimeNotice({ lts: 'Krypton' })).toBeUndefined();
});

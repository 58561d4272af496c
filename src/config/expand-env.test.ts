import { describe, expect, test } from 'vitest';
import { expandEnv, hasEnvReference } from './expand-env.js';

describe('expandEnv', () => {
  const env = { HOME: '/home/u', EMPTY: '', TOKEN: 's3cret' };

  test('expands ${VAR}, ${env:VAR} and defaults', () => {
    expect(expandEnv('${HOME}/x ${env:TOKEN} ${MISSING:-fallback}', env)).toEqual({ value: '/home/u/x s3cret fallback', missing: [] });
  });

  test('an empty variable takes the default, or stays empty without one', () => {
    expect(expandEnv('[${EMPTY:-d}][${EMPTY}]', env)).toEqual({ value: '[d][]', missing: [] });
  });

  test('reports unset variables by name', () => {
    expect(expandEnv('a ${NOPE} b ${ALSO_NOPE}', env)).toEqual({ value: 'a  b ', missing: ['NOPE', 'ALSO_NOPE'] });
  });

  test('$${ escapes a literal ${', () => {
    expect(expandEnv('$${HOME}', env).value).toBe('${HOME}');
  });

  test('hasEnvReference', () => {
    expect(hasEnvReference('x ${A}')).toBe(true);
    expect(hasEnvReference('x $${A}')).toBe(false);
    expect(hasEnvReference('plain')).toBe(false);
  });
});

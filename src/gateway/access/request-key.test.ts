import { expect, test } from 'vitest';
import { newRequestKey } from './request-key.js';

test('approval ids are 128 random bits that a command line never reads as a flag', () => {
  const ids = Array.from({ length: 2000 }, () => newRequestKey());
  for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
  expect(new Set(ids).size).toBe(ids.length);
});

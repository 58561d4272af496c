import { expect, test } from 'vitest';
import { newId } from './new-id.js';

test('UUIDv7: version and variant bits, time-ordered, strictly increasing within a millisecond', () => {
  const ids = Array.from({ length: 5_000 }, () => newId(1_700_000_000_000));
  for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  // The first 48 bits are the millisecond time, most significant first.
  expect(ids[0]?.replaceAll('-', '').slice(0, 12)).toBe((1_700_000_000_000).toString(16).padStart(12, '0'));
  expect([...ids].sort()).toEqual(ids);
  expect(new Set(ids).size).toBe(ids.length);
  expect(newId(1_800_000_000_000) > (ids.at(-1) ?? '')).toBe(true);
});

import { expect, test } from 'vitest';
import { SequenceTable } from './sequence-table.js';

test('entries come back by their sequence number and leave once', () => {
  const table = new SequenceTable<string>();
  for (let seq = 1; seq <= 5; seq++) table.set(seq, `v${seq}`);
  expect(table.size).toBe(5);
  expect(table.get(3)).toBe('v3');
  expect(table.delete(3)).toBe(true);
  expect(table.delete(3)).toBe(false);
  expect(table.get(3)).toBeUndefined();
  expect(table.get(19)).toBeUndefined();
  expect(table.size).toBe(4);
  expect(table.entries()).toEqual([[1, 'v1'], [2, 'v2'], [4, 'v4'], [5, 'v5']]);
});

test('the ring grows with what is in flight: a thousand at once are all found', () => {
  const table = new SequenceTable<number>();
  for (let seq = 0; seq < 1000; seq++) table.set(seq, seq * 2);
  expect(table.size).toBe(1000);
  for (let seq = 0; seq < 1000; seq++) expect(table.get(seq)).toBe(seq * 2);
  for (let seq = 0; seq < 1000; seq += 2) expect(table.delete(seq)).toBe(true);
  expect(table.size).toBe(500);
  expect(table.entries().map(([seq]) => seq)).toEqual(Array.from({ length: 500 }, (_, index) => index * 2 + 1));
});

test('a long entry among many short ones is kept when its slot comes round again', () => {
  const table = new SequenceTable<string>();
  table.set(1, 'long');
  // Short calls one at a time: the ring stays small, so slot 1 is met again and again.
  for (let seq = 2; seq < 5000; seq++) {
    table.set(seq, 'short');
    expect(table.delete(seq)).toBe(true);
  }
  table.set(5000, 'last');
  expect(table.get(1)).toBe('long');
  expect(table.size).toBe(2);
  expect(table.entries()).toEqual([[1, 'long'], [5000, 'last']]);
  expect(table.delete(1)).toBe(true);
  expect(table.get(1)).toBeUndefined();
  expect(table.size).toBe(1);
});

test('growing keeps every entry, a straggler from before included', () => {
  const table = new SequenceTable<number>();
  table.set(1, 1);
  for (let seq = 2; seq <= 40; seq++) {
    table.set(seq, seq);
    table.delete(seq);
  }
  // Now many at once: the ring doubles several times with 1 already a straggler.
  for (let seq = 100; seq < 400; seq++) table.set(seq, seq);
  expect(table.get(1)).toBe(1);
  for (let seq = 100; seq < 400; seq++) expect(table.get(seq)).toBe(seq);
  expect(table.size).toBe(301);
  expect(table.entries()[0]).toEqual([1, 1]);
});

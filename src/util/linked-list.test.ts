import { expect, test } from 'vitest';
import { LinkedList } from './linked-list.js';

test('entries leave through their node, from the head, the middle or the tail, once', () => {
  const list = new LinkedList<string>();
  const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((value) => list.push(value)) as [ReturnType<typeof list.push>, ReturnType<typeof list.push>, ReturnType<typeof list.push>, ReturnType<typeof list.push>];
  expect(list.size).toBe(4);
  expect(list.remove(b)).toBe(true);
  expect(list.values()).toEqual(['a', 'c', 'd']);
  expect(list.remove(a)).toBe(true);
  expect(list.remove(d)).toBe(true);
  expect(list.values()).toEqual(['c']);
  expect(list.remove(b)).toBe(false);
  expect(list.size).toBe(1);
  expect(list.remove(c)).toBe(true);
  expect(list.values()).toEqual([]);
  expect(list.size).toBe(0);
  list.push('e');
  expect(list.values()).toEqual(['e']);
});

test('a node of one list does not remove anything from another', () => {
  const one = new LinkedList<number>();
  const other = new LinkedList<number>();
  const node = one.push(1);
  other.push(1);
  expect(other.remove(node)).toBe(false);
  expect(other.size).toBe(1);
  expect(one.remove(node)).toBe(true);
});

test('values is a copy that removals do not change', () => {
  const list = new LinkedList<{ id: number }>();
  const nodes = [1, 2, 3].map((id) => list.push({ id }));
  const copy = list.values();
  for (const node of nodes) list.remove(node);
  expect(copy.map((value) => value.id)).toEqual([1, 2, 3]);
  expect(list.size).toBe(0);
});

/**
 * @module util/linked-list
 * A doubly linked list whose `push` returns the entry's node, so the entry leaves in O(1) without a
 * lookup. For the sets of calls in flight, which gain and lose a member on every call: a `Set` used
 * that way rehashes every few dozen calls, each new table in the old generation once the set is old
 * (see util/sequence-table), while a node here is one small object that dies young.
 */

/** One entry of a {@link LinkedList}. */
export interface ListNode<T> {
  readonly value: T;
}

class Node<T> implements ListNode<T> {
  prev: Node<T> | undefined = undefined;
  next: Node<T> | undefined = undefined;
  /** The list holding the node; undefined once removed. */
  list: LinkedList<T> | undefined;
  constructor(
    readonly value: T,
    list: LinkedList<T>,
  ) {
    this.list = list;
  }
}

/** Entries in insertion order; each leaves through the node `push` gave. */
export class LinkedList<T> {
  #head: Node<T> | undefined;
  #tail: Node<T> | undefined;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Appends `value`; the node removes it. */
  push(value: T): ListNode<T> {
    const node = new Node(value, this);
    const tail = this.#tail;
    if (tail === undefined) this.#head = node;
    else {
      tail.next = node;
      node.prev = tail;
    }
    this.#tail = node;
    this.#size++;
    return node;
  }

  /** Removes `handle`'s entry; false when it was not in this list (any more). */
  remove(handle: ListNode<T>): boolean {
    const node = handle as Node<T>;
    if (node.list !== this) return false;
    node.list = undefined;
    const { prev, next } = node;
    if (prev === undefined) this.#head = next;
    else prev.next = next;
    if (next === undefined) this.#tail = prev;
    else next.prev = prev;
    node.prev = undefined;
    node.next = undefined;
    this.#size--;
    return true;
  }

  /** The entries, oldest first (a copy: handling one may remove others). */
  values(): T[] {
    const all: T[] = [];
    for (let node = this.#head; node !== undefined; node = node.next) all.push(node.value);
    return all;
  }
}

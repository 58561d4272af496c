/**
 * @module util/sequence-table
 * Entries keyed by the increasing sequence numbers their owner hands out (request ids), for tables
 * that gain and lose an entry on every call. A `Map` used that way rehashes every few dozen calls, and
 * once the map is old V8 allocates each new backing table in the old generation: garbage that only a
 * full GC reclaims, and which the scavenges before it copy (bench/README.md, issue 17, tenth pass).
 * Here an entry lives in a ring slot (`seq` modulo the ring's size), written in place; the ring grows
 * with what is in flight, up to {@link MAX_RING}. An entry still there when its slot comes round again
 * (a long call among many short ones) moves to a small `Map` of stragglers.
 */

/** Largest ring; past it, entries that meet an occupied slot wait in the straggler map. */
const MAX_RING = 1 << 16;
const FIRST_RING = 16;

/** Entries by sequence number (non-negative safe integers, handed out in increasing order). */
export class SequenceTable<T> {
  #seqs: number[] = new Array<number>(FIRST_RING).fill(-1);
  #values: Array<T | undefined> = new Array<T | undefined>(FIRST_RING).fill(undefined);
  #mask = FIRST_RING - 1;
  #inRing = 0;
  #stragglers: Map<number, T> | undefined;

  /** Entries held. */
  get size(): number {
    return this.#inRing + (this.#stragglers?.size ?? 0);
  }

  /** Adds `value` under `seq` (not already held). */
  set(seq: number, value: T): void {
    if (this.#inRing >= this.#seqs.length >> 1 && this.#seqs.length < MAX_RING) this.#grow();
    const slot = seq & this.#mask;
    const occupant = this.#seqs[slot] as number;
    if (occupant !== -1) this.#straggle(occupant, this.#values[slot] as T);
    else this.#inRing++;
    this.#seqs[slot] = seq;
    this.#values[slot] = value;
  }

  /** The entry under `seq`, if held. */
  get(seq: number): T | undefined {
    const slot = seq & this.#mask;
    if (this.#seqs[slot] === seq) return this.#values[slot];
    return this.#stragglers?.get(seq);
  }

  /** Removes the entry under `seq`; false when none was held. */
  delete(seq: number): boolean {
    const slot = seq & this.#mask;
    if (this.#seqs[slot] === seq) {
      this.#seqs[slot] = -1;
      this.#values[slot] = undefined;
      this.#inRing--;
      return true;
    }
    return this.#stragglers?.delete(seq) ?? false;
  }

  /** Every entry, as `[seq, value]` pairs (a copy: the table may change while they are handled). */
  entries(): Array<[number, T]> {
    const all: Array<[number, T]> = [...(this.#stragglers ?? [])];
    for (let slot = 0; slot < this.#seqs.length; slot++) {
      const seq = this.#seqs[slot] as number;
      if (seq !== -1) all.push([seq, this.#values[slot] as T]);
    }
    return all.sort((a, b) => a[0] - b[0]);
  }

  #straggle(seq: number, value: T): void {
    this.#stragglers ??= new Map();
    this.#stragglers.set(seq, value);
  }

  /** Doubles the ring. Entries in distinct slots of the old ring are in distinct slots of the new one. */
  #grow(): void {
    const seqs = this.#seqs;
    const values = this.#values;
    const size = seqs.length * 2;
    this.#seqs = new Array<number>(size).fill(-1);
    this.#values = new Array<T | undefined>(size).fill(undefined);
    this.#mask = size - 1;
    for (let slot = 0; slot < seqs.length; slot++) {
      const seq = seqs[slot] as number;
      if (seq === -1) continue;
      this.#seqs[seq & this.#mask] = seq;
      this.#values[seq & this.#mask] = values[slot];
    }
  }
}

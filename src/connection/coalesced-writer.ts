/**
 * @module connection/coalesced-writer
 * Text to a child's stdin, coalesced per turn of the event loop. The first write of a turn goes out at
 * once, so a lone call waits for nothing. Writes after it in the same turn are joined and go out in one
 * write when the turn ends (`setImmediate`). Under load many requests arrive in one poll phase: one pipe
 * write per call cost a syscall and a wake-up of the server each, the largest item of the gateway's
 * profile (issue 17, bench/README.md). Order is kept: once text waits, every later write joins it.
 * A *lone* write (its sender has nothing else in flight) goes out at once and opens no turn: the wait
 * for the turn's end is one more pass of the event loop before the process sleeps, ~10 µs on a lone
 * call's latency (bench/README.md, fifteenth pass). A write after it in the same turn opens one.
 */

import type { Writable } from 'node:stream';

/** Writes to one stream, one write per turn after the first. */
export class CoalescedWriter {
  readonly #stream: Writable;
  #waiting = '';
  #turn: NodeJS.Immediate | undefined;

  constructor(stream: Writable) {
    this.#stream = stream;
  }

  /**
   * Writes `text` now or at the end of this turn. `lone`: the sender has nothing else in flight, so
   * no other write is expected this turn. False when the stream asks the writer to wait for `drain`.
   */
  write(text: string, lone = false): boolean {
    if (this.#turn === undefined) {
      if (!lone) this.#turn = setImmediate(this.#endTurn);
      return this.#stream.write(text);
    }
    this.#waiting += text;
    return !this.#stream.writableNeedDrain;
  }

  /** Writes what waits now (before the stream is ended) and stops the turn's timer. */
  flush(): void {
    if (this.#turn !== undefined) {
      clearImmediate(this.#turn);
      this.#turn = undefined;
    }
    this.#writeWaiting();
  }

  readonly #endTurn = (): void => {
    this.#turn = undefined;
    this.#writeWaiting();
  };

  #writeWaiting(): void {
    const text = this.#waiting;
    if (text === '') return;
    this.#waiting = '';
    const stream = this.#stream;
    // A stream gone meanwhile takes nothing: the process ended, and its calls fail with its close.
    if (!stream.destroyed && stream.writable) stream.write(text);
  }
}

/**
 * @module connection/json-line-decoder
 * Splits a byte stream into lines without re-concatenating the whole pending buffer on every chunk
 * (the SDK's read buffer does, which is quadratic for messages that span many 64 KB chunks): partial
 * chunks are kept in a list and only new bytes are scanned for `\n`.
 */

const NEWLINE = 0x0a;

/** Largest line accepted. @default 256 MiB */
export const DEFAULT_MAX_LINE_BYTES = 256 * 1024 * 1024;

/** Incremental newline splitter for newline-delimited JSON. */
export class JsonLineDecoder {
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  readonly #maxLineBytes: number;

  constructor(maxLineBytes: number = DEFAULT_MAX_LINE_BYTES) {
    this.#maxLineBytes = maxLineBytes;
  }

  /** Feeds a chunk; calls `onLine` with each complete line (without the newline). */
  push(chunk: Buffer, onLine: (line: string) => void): void {
    let start = 0;
    let newline = chunk.indexOf(NEWLINE, start);
    while (newline !== -1) {
      let line: string;
      if (this.#pending.length === 0) {
        line = chunk.toString('utf8', start, newline);
      } else {
        this.#pending.push(chunk.subarray(start, newline));
        line = Buffer.concat(this.#pending, this.#pendingBytes + newline - start).toString('utf8');
        this.#pending = [];
        this.#pendingBytes = 0;
      }
      onLine(line);
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) {
      this.#pendingBytes += chunk.length - start;
      if (this.#pendingBytes > this.#maxLineBytes) {
        this.#pending = [];
        this.#pendingBytes = 0;
        throw new RangeError(`a message on stdout exceeded ${this.#maxLineBytes} bytes without a newline`);
      }
      this.#pending.push(start === 0 ? chunk : chunk.subarray(start));
    }
  }

  /** Bytes held for an unfinished line. */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }
}

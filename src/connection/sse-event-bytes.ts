/**
 * @module connection/sse-event-bytes
 * The size of the event an event stream is in the middle of: bytes since the last blank line (the end
 * of an event, `\n\n` or `\r\n\r\n`), across chunks. An SSE parser joins every `data:` line of an event
 * into one string until that blank line, so it is the event, not its line, that a bound must count
 * (short lines without a blank line grew one event without end).
 */

const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** Counts the bytes of the unfinished event of one stream. */
export class SseEventBytes {
  /** Bytes of the unfinished line (its carriage return included). */
  #lineBytes = 0;
  /** The last byte of the previous chunk (a line's carriage return may end one chunk and its line feed start the next). */
  #lastByte = -1;
  #eventBytes = 0;

  /** Takes the next chunk; returns the bytes of the event not yet ended after it. */
  add(chunk: Uint8Array): number {
    let from = 0;
    let eventStart = -1;
    for (let lineFeed = chunk.indexOf(LINE_FEED); lineFeed !== -1; lineFeed = chunk.indexOf(LINE_FEED, from)) {
      const length = this.#lineBytes + (lineFeed - from);
      const before = lineFeed > from ? chunk[lineFeed - 1] : this.#lastByte;
      if (length === 0 || (length === 1 && before === CARRIAGE_RETURN)) eventStart = lineFeed + 1;
      this.#lineBytes = 0;
      from = lineFeed + 1;
    }
    this.#lineBytes += chunk.length - from;
    if (chunk.length > 0) this.#lastByte = chunk[chunk.length - 1] as number;
    this.#eventBytes = eventStart === -1 ? this.#eventBytes + chunk.length : chunk.length - eventStart;
    return this.#eventBytes;
  }
}

/**
 * @module connection/sse-event-bytes
 * The size of the event an event stream is in the middle of: bytes since the last blank line (the end
 * of an event), across chunks. An SSE parser joins every `data:` line of an event into one string until
 * that blank line, so it is the event, not its line, that a bound must count (short lines without a
 * blank line grew one event without end). Lines end as the SSE format says: CRLF, LF or CR alone.
 * One pass over the bytes: a stream of nothing but line ends costs what any other stream does.
 */

const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** Counts the bytes of the unfinished event of one stream. */
export class SseEventBytes {
  /** Bytes of the unfinished line, without its end. */
  #lineBytes = 0;
  /** The last byte seen ended a line with CR: a line feed right after it belongs to that end. */
  #afterCarriageReturn = false;
  /** The previous chunk's last byte ended an event (its CRLF's line feed may open this chunk). */
  #endedEvent = false;
  #eventBytes = 0;

  /** Takes the next chunk; returns the bytes of the event not yet ended after it. */
  add(chunk: Uint8Array): number {
    let eventStart = -1;
    let lineBytes = this.#lineBytes;
    let afterCarriageReturn = this.#afterCarriageReturn;
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index];
      if (byte === LINE_FEED && afterCarriageReturn) {
        // The line feed of a CRLF: when that line ended the event, the next one starts after it.
        if (eventStart === index || (index === 0 && this.#endedEvent)) eventStart = index + 1;
        afterCarriageReturn = false;
        continue;
      }
      if (byte === LINE_FEED || byte === CARRIAGE_RETURN) {
        // An empty line ends the event.
        if (lineBytes === 0) eventStart = index + 1;
        lineBytes = 0;
        afterCarriageReturn = byte === CARRIAGE_RETURN;
        continue;
      }
      lineBytes++;
      afterCarriageReturn = false;
    }
    this.#lineBytes = lineBytes;
    this.#afterCarriageReturn = afterCarriageReturn;
    this.#endedEvent = chunk.length > 0 ? eventStart === chunk.length : this.#endedEvent;
    this.#eventBytes = eventStart === -1 ? this.#eventBytes + chunk.length : chunk.length - eventStart;
    return this.#eventBytes;
  }
}

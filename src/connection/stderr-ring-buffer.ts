/**
 * @module connection/stderr-ring-buffer
 * The last lines a server wrote to stderr, kept to explain start-up failures.
 */

/** Lines kept. @default 50 */
export const DEFAULT_STDERR_LINES = 50;
const MAX_LINE_CHARS = 2_000;

/** A bounded buffer of stderr lines. */
export class StderrRingBuffer {
  readonly #lines: string[] = [];
  readonly #capacity: number;
  #partial = '';

  constructor(capacity: number = DEFAULT_STDERR_LINES) {
    this.#capacity = capacity;
  }

  /** Adds raw output; calls `onLine` for every complete line. */
  push(chunk: string, onLine?: (line: string) => void): void {
    const text = this.#partial + chunk;
    const parts = text.split('\n');
    this.#partial = (parts.pop() ?? '').slice(-MAX_LINE_CHARS);
    for (const part of parts) this.#add(part.replace(/\r$/, ''), onLine);
  }

  /** Flushes a trailing line without a newline (at process exit). */
  flush(onLine?: (line: string) => void): void {
    if (this.#partial !== '') this.#add(this.#partial, onLine);
    this.#partial = '';
  }

  /** The last `count` lines (all kept lines by default). */
  lines(count: number = this.#capacity): string[] {
    return this.#lines.slice(-count);
  }

  /** The last lines joined, for error details. */
  tail(count = 20): string {
    return this.lines(count).join('\n');
  }

  #add(line: string, onLine?: (line: string) => void): void {
    const trimmed = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
    this.#lines.push(trimmed);
    if (this.#lines.length > this.#capacity) this.#lines.shift();
    onLine?.(trimmed);
  }
}

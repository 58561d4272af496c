/**
 * The blocks of a Server-Sent Events body as a test reads them: each text between blank lines is
 * handed to `onBlock` as it arrives, until the stream ends or is aborted.
 */

/** Reads `reader` to its end, calling `onBlock` with every SSE block; resolves when the stream is over. */
export async function readSseBlocks(reader: ReadableStreamDefaultReader<Uint8Array>, onBlock: (block: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
    if (chunk.done) return;
    buffer += decoder.decode(chunk.value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      onBlock(block);
    }
  }
}

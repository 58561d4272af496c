import { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { CoalescedWriter } from './coalesced-writer.js';

/** A stream that records each write it was given; a slow one takes a turn per write, so a small buffer fills. */
function recorder(highWaterMark = 1024, slow = false): { stream: Writable; writes: string[] } {
  const writes: string[] = [];
  const stream = new Writable({
    highWaterMark,
    decodeStrings: false,
    write(chunk: string, _encoding, done) {
      writes.push(chunk);
      if (slow) setImmediate(done);
      else done();
    },
  });
  return { stream, writes };
}

test('the first write of a turn goes out at once; the rest of the turn goes out as one write, in order', async () => {
  const { stream, writes } = recorder();
  const writer = new CoalescedWriter(stream);
  writer.write('a\n');
  expect(writes).toEqual(['a\n']);
  writer.write('b\n');
  writer.write('c\n');
  expect(writes).toEqual(['a\n']);
  await nextTurn();
  expect(writes).toEqual(['a\n', 'b\nc\n']);
  // A new turn starts with a write at once again.
  writer.write('d\n');
  expect(writes).toEqual(['a\n', 'b\nc\n', 'd\n']);
  writer.flush();
});

test('flush writes what waits before the stream ends, and a stream gone meanwhile takes nothing', async () => {
  const { stream, writes } = recorder();
  const writer = new CoalescedWriter(stream);
  writer.write('a\n');
  writer.write('b\n');
  writer.flush();
  stream.end();
  expect(writes).toEqual(['a\n', 'b\n']);
  await nextTurn();
  expect(writes).toEqual(['a\n', 'b\n']);

  const gone = recorder();
  const late = new CoalescedWriter(gone.stream);
  late.write('a\n');
  late.write('b\n');
  gone.stream.destroy();
  await nextTurn();
  expect(gone.writes).toEqual(['a\n']);
});

test('a full stream is reported (false) for a write that waits, so the sender waits for drain', () => {
  const { stream } = recorder(4, true);
  const writer = new CoalescedWriter(stream);
  expect(writer.write('0123456789\n')).toBe(false);
  expect(writer.write('b\n')).toBe(false);
  writer.flush();
});

/** Immediates this process has pending (the writer's end-of-turn wait is one). */
const immediates = (): number => process.getActiveResourcesInfo().filter((name) => name === 'Immediate').length;

test('a lone write goes out at once and leaves no end-of-turn wait; a write after it in the same turn opens one', async () => {
  const { stream, writes } = recorder();
  const writer = new CoalescedWriter(stream);
  const before = immediates();
  writer.write('a\n', true);
  expect(writes).toEqual(['a\n']);
  expect(immediates()).toBe(before);
  // Someone else wrote meanwhile: this write goes out at once too, and the turn's next ones wait.
  writer.write('b\n');
  expect(writes).toEqual(['a\n', 'b\n']);
  expect(immediates()).toBe(before + 1);
  writer.write('c\n', true);
  expect(writes).toEqual(['a\n', 'b\n']);
  await nextTurn();
  expect(writes).toEqual(['a\n', 'b\n', 'c\n']);
  expect(immediates()).toBe(before);
});

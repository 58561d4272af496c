import { expect, test } from 'vitest';
import { SerialByKey } from './serial-by-key.js';

function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

test('tasks of one key run in order, one at a time; tasks of other keys do not wait', async () => {
  const queue = new SerialByKey();
  const log: string[] = [];
  const first = gate();
  const a1 = queue.run('a', async () => {
    log.push('a1 start');
    await first.promise;
    log.push('a1 end');
  });
  const a2 = queue.run('a', async () => {
    log.push('a2');
  });
  await queue.run('b', async () => {
    log.push('b');
  });
  expect(log).toEqual(['a1 start', 'b']);
  first.open();
  await Promise.all([a1, a2]);
  expect(log).toEqual(['a1 start', 'b', 'a1 end', 'a2']);
});

test('flush waits for every task started so far, and finished keys are forgotten', async () => {
  const queue = new SerialByKey();
  const slow = gate();
  let done = false;
  void queue.run('a', async () => {
    await slow.promise;
    done = true;
  });
  expect(queue.size).toBe(1);
  const flushed = queue.flush();
  slow.open();
  await flushed;
  expect(done).toBe(true);
  await Promise.resolve();
  expect(queue.size).toBe(0);
});

import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { ListChangeDebouncer } from './list-change-debouncer.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

test('a burst runs the task once after it pauses; a flood runs it at least every maxWaitMs', () => {
  const debouncer = new ListChangeDebouncer({ delayMs: 100, maxWaitMs: 500, now: () => Date.now() });
  const task = vi.fn();
  for (let index = 0; index < 5; index++) {
    debouncer.trigger('tools', task);
    vi.advanceTimersByTime(10);
  }
  expect(task).not.toHaveBeenCalled();
  vi.advanceTimersByTime(100);
  expect(task).toHaveBeenCalledTimes(1);

  task.mockClear();
  // 2 s of notifications every 10 ms: the debounce alone would never fire.
  for (let elapsed = 0; elapsed < 2_000; elapsed += 10) {
    debouncer.trigger('tools', task);
    vi.advanceTimersByTime(10);
  }
  expect(task.mock.calls.length).toBeGreaterThanOrEqual(3);
  debouncer.cancelAll();
  vi.advanceTimersByTime(1_000);
  expect(task.mock.calls.length).toBeLessThanOrEqual(4);
});

test('a delay of 0 runs at once; keys are independent', () => {
  const now = new ListChangeDebouncer({ delayMs: 0 });
  const task = vi.fn();
  now.trigger('tools', task);
  expect(task).toHaveBeenCalledTimes(1);
  const debouncer = new ListChangeDebouncer({ delayMs: 50 });
  const tools = vi.fn();
  const prompts = vi.fn();
  debouncer.trigger('tools', tools);
  debouncer.trigger('prompts', prompts);
  vi.advanceTimersByTime(50);
  expect([tools.mock.calls.length, prompts.mock.calls.length]).toEqual([1, 1]);
});

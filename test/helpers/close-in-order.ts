/**
 * Teardown of several things in a test's afterAll: each step runs even when an earlier one throws,
 * so that a failing close does not leave a process or a temporary directory behind.
 */

/** Runs `steps` in order, each in the `finally` of the one before; a step's error is thrown after the rest have run. */
export async function closeInOrder(...steps: Array<() => unknown>): Promise<void> {
  const [first, ...rest] = steps;
  if (first === undefined) return;
  try {
    await first();
  } finally {
    await closeInOrder(...rest);
  }
}

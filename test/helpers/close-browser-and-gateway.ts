/**
 * The teardown of a browser test against a gateway process: each step runs even when an earlier one
 * throws, so that a failing close leaves neither a process nor the temporary directory behind.
 */
import { rmSync } from 'node:fs';

/** Closes `browser`, then `gateway`, then removes `dir` (each may be undefined when set-up failed early). */
export async function closeBrowserAndGateway(browser: { close(): Promise<void> } | undefined, gateway: { close(): Promise<void> } | undefined, dir: string | undefined): Promise<void> {
  try {
    await browser?.close();
  } finally {
    try {
      await gateway?.close();
    } finally {
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    }
  }
}

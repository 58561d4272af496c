/**
 * The suite-wide leak check: after every test file has run, no process started from this checkout
 * (fixture servers, the npm reference servers, the CLI, the gateway) may still be running.
 */
import { livingProcesses, descendantsOf, type ProcessInfo } from './processes.js';

const root = process.cwd();

function startedFromCheckout(info: ProcessInfo): boolean {
  return info.cmdline.includes(`${root}/`) && !info.cmdline.includes('vitest');
}

let before = new Set<number>();

export function setup(): void {
  before = new Set(livingProcesses().map((info) => info.pid));
}

export async function teardown(): Promise<void> {
  const own = new Set([process.pid, ...descendantsOf(process.pid).map((info) => info.pid)]);
  const find = (): ProcessInfo[] => livingProcesses().filter((info) => !before.has(info.pid) && !own.has(info.pid) && startedFromCheckout(info));
  // Give closing servers a moment to finish exiting.
  const deadline = Date.now() + 3_000;
  let leaked = find();
  while (leaked.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    leaked = find();
  }
  if (leaked.length > 0) {
    for (const info of leaked) {
      try {
        process.kill(info.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    throw new Error(`leak check: ${leaked.length} process(es) outlived the test suite:\n${leaked.map((info) => `  ${info.pid} ${info.cmdline}`).join('\n')}`);
  }
}

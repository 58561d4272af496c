/**
 * Two folders for two real server-filesystem instances: each holds a file only it has, so a test can
 * tell which folder a call ran on.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temporary directory with `one/only-in-one.txt`, `two/only-in-two.txt` and a `started` record path. */
export interface TwoFolders {
  /** The temporary directory; the test removes it. */
  dir: string;
  one: string;
  two: string;
  /** Where the held-server wrapper records every start (not created here). */
  record: string;
}

/** Makes the two folders under a new temporary directory named with `prefix`. */
export function makeTwoFolders(prefix: string): TwoFolders {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const one = join(dir, 'one');
  const two = join(dir, 'two');
  mkdirSync(one);
  mkdirSync(two);
  writeFileSync(join(one, 'only-in-one.txt'), 'one');
  writeFileSync(join(two, 'only-in-two.txt'), 'two');
  return { dir, one, two, record: join(dir, 'started') };
}

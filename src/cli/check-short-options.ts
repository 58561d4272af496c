/**
 * @module cli/check-short-options
 * The CLI's only short options are `-h` and `-v`. cac reads `-Bxh` as the flags B, x and h, so an
 * argument like that (an id or a value that happens to start with a dash) printed the help and exited 0,
 * doing nothing. Such an argument is refused instead, with how to pass it.
 */

import { usageError } from './cli-error.js';

/** Throws a usage error for the first bundled short option before `--` (`-ab`, not `-h` or `--name`). */
export function checkShortOptions(argv: readonly string[]): void {
  for (const argument of argv) {
    if (argument === '--') return;
    if (/^-[^-]./.test(argument)) {
      // Only its first two characters are shown: the argument may be a value, even a secret.
      throw usageError(`"${argument.slice(0, 2)}…" is not an option (the only short ones are -h and -v); a value that starts with "-" is written --option=VALUE, and a positional one goes after "--"`);
    }
  }
}

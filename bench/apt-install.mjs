/**
 * A Debian tool the bench drives (wrk, HAProxy), installed with apt-get when it is missing.
 */

import { execFileSync } from 'node:child_process';

/** Runs `apt-get install PACKAGE` (as root, or through `sudo -n`); throws when it fails. */
export function aptInstall(pkg) {
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const args = ['apt-get', 'install', '-y', '--no-install-recommends', pkg];
  execFileSync(asRoot.length === 0 ? args[0] : asRoot[0], asRoot.length === 0 ? args.slice(1) : [...asRoot.slice(1), ...args], { stdio: 'inherit' });
}

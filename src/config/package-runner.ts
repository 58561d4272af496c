/**
 * @module config/package-runner
 * Commands that may download the server before running it (`npx -y pkg`, `uvx pkg`, …): their first
 * start gets a longer deadline.
 */

import { basename } from 'node:path';

const RUNNERS: ReadonlySet<string> = new Set(['npx', 'pnpx', 'bunx', 'uvx']);
const RUNNER_SUBCOMMANDS: Readonly<Record<string, string>> = { npm: 'exec', pnpm: 'dlx', yarn: 'dlx', pipx: 'run', uv: 'tool' };

/** True when `command args…` runs a package through a runner that installs it on first use. */
export function isPackageRunner(command: string, args: readonly string[]): boolean {
  const name = basename(command).replace(/\.(cmd|exe|bat)$/i, '').toLowerCase();
  if (RUNNERS.has(name)) return true;
  const subcommand = RUNNER_SUBCOMMANDS[name];
  return subcommand !== undefined && args[0] === subcommand;
}

/**
 * @module version
 * The package version, read once from package.json (kept out of the bundle so it cannot drift).
 */

import { readFileSync } from 'node:fs';

function readVersion(): string {
  try {
    const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
    const parsed = JSON.parse(text) as { version?: unknown };
    return typeof parsed.version === 'string' ? parsed.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** This package's version, sent as `clientInfo.version`. */
export const VERSION: string = readVersion();

/**
 * Debian's Chromium driven by playwright-core, headless, on a fresh profile, with everything that would
 * reach the network switched off (this machine has none; CI neither). Never downloads a browser.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Where Debian installs Chromium (`apt-get install chromium`). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for a headless run in a container without network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Why the browser tests cannot run here, or undefined. */
export function chromiumMissing(): string | undefined {
  return existsSync(CHROMIUM_PATH) ? undefined : `${CHROMIUM_PATH} is missing (apt-get install -y chromium)`;
}

/** A browser on a fresh profile; `close()` ends the browser and removes the profile. */
export async function launchChromium(options: { viewport?: { width: number; height: number } } = {}): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'switchboard-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: options.viewport ?? { width: 1280, height: 800 },
      timeout: 30_000,
    });
    return {
      context,
      close: async () => {
        try {
          await context.close();
        } finally {
          rmSync(profile, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}

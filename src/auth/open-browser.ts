/**
 * @module auth/open-browser
 * Opens an http(s) URL in the person's browser — never through a shell: the URL comes from an
 * authorization server and must not be able to run commands (CVE-2025-6514 was exactly that). The
 * opener gets the URL as one argument; anything but http(s) is refused.
 */

import { spawn } from 'node:child_process';

/** The opener program and its arguments for this platform, or undefined when there is none to try. */
export function browserCommand(url: string, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): [string, string[]] | undefined {
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['rundll32.exe', ['url.dll,FileProtocolHandler', url]];
  // Without a display there is no browser to open (SSH sessions, CI).
  if (env.DISPLAY === undefined && env.WAYLAND_DISPLAY === undefined) return undefined;
  return ['xdg-open', [url]];
}

/** Tries to open `url`; resolves false when it could not (then print the URL instead). */
export async function openBrowser(url: string): Promise<boolean> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  const command = browserCommand(parsed.href);
  if (command === undefined) return false;
  return new Promise<boolean>((resolve) => {
    const child = spawn(command[0], command[1], { stdio: 'ignore', detached: true, shell: false });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

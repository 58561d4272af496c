/**
 * @module gateway/app-frames
 * MCP App documents for the dashboard's frames. A frame cannot send the user's token, so the
 * dashboard's authorized `GET /api/tools/:name/app` leaves the app's HTML here under a one-time URL
 * (128 random bits, used once, valid a minute), and the frame loads it from there. The document is
 * served with its own policy: `sandbox allow-scripts` (an opaque origin even when opened directly),
 * its inline script and styles allowed, nothing fetched, nowhere to connect, framed only by the
 * dashboard.
 */

import { randomBytes } from 'node:crypto';

/** The path of the frames. */
export const APP_FRAME_PATH = '/app-frames';
/** How long a frame URL is valid. */
export const APP_FRAME_TTL_MS = 60_000;
/** Most documents waiting at once (the oldest go first). */
export const MAX_APP_FRAMES = 100;

/** The policy of an app's document. */
export const APP_FRAME_CSP = [
  'sandbox allow-scripts',
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  'font-src data:',
  'media-src data:',
  "connect-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
].join('; ');

/** The headers of an app's document. */
export const APP_FRAME_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': APP_FRAME_CSP,
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** Documents waiting for their frame. */
export class AppFrames {
  readonly #documents = new Map<string, { html: string; expiresAt: number }>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Leaves `html` for one frame; resolves with the URL path the frame loads. */
  issue(html: string): string {
    const token = randomBytes(16).toString('base64url');
    this.#documents.set(token, { html, expiresAt: this.#now() + APP_FRAME_TTL_MS });
    while (this.#documents.size > MAX_APP_FRAMES) {
      const oldest = this.#documents.keys().next();
      if (oldest.done === true) break;
      this.#documents.delete(oldest.value);
    }
    return `${APP_FRAME_PATH}/${token}`;
  }

  /** The document of a frame URL's token, once; undefined when unknown, used or expired. */
  take(token: string): string | undefined {
    const document = this.#documents.get(token);
    this.#documents.delete(token);
    return document === undefined || document.expiresAt <= this.#now() ? undefined : document.html;
  }
}

import { expect, test } from 'vitest';
import { APP_FRAME_CSP, APP_FRAME_PATH, APP_FRAME_TTL_MS, AppFrames } from './app-frames.js';

test('a frame URL serves its document once, within its TTL', () => {
  let now = 0;
  const frames = new AppFrames(() => now);
  const first = frames.issue('<p>a</p>');
  expect(first).toMatch(new RegExp(`^${APP_FRAME_PATH}/[A-Za-z0-9_-]{22}$`));
  const token = first.slice(APP_FRAME_PATH.length + 1);
  expect(frames.take(token)).toBe('<p>a</p>');
  expect(frames.take(token)).toBeUndefined();
  const late = frames.issue('<p>b</p>').slice(APP_FRAME_PATH.length + 1);
  now += APP_FRAME_TTL_MS;
  expect(frames.take(late)).toBeUndefined();
  expect(frames.take('made-up')).toBeUndefined();
});

test('the document is sandboxed and reaches no network', () => {
  expect(APP_FRAME_CSP.startsWith('sandbox allow-scripts;')).toBe(true);
  expect(APP_FRAME_CSP).not.toContain('allow-same-origin');
  expect(APP_FRAME_CSP).toContain("connect-src 'none'");
  expect(APP_FRAME_CSP).not.toMatch(/https?:/);
});

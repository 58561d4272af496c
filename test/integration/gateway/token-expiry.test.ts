/**
 * An expired token is refused at once (issue 14, finding 8b): the gateway remembers verified tokens
 * for a few seconds, and used to accept a token for up to that long past its `expiresAt`.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { TOKEN_CACHE_TTL_MS } from '../../../src/gateway/token-cache.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(async () => {
  await gateway?.close();
});

/** Resolves once the wall clock has passed `time` (one timer to that moment, bounded by the caller's value). */
async function clockPast(time: number, boundMs: number): Promise<void> {
  const wait = time - Date.now() + 1;
  expect(wait).toBeLessThanOrEqual(boundMs);
  while (Date.now() <= time) await new Promise((resolve) => setTimeout(resolve, Math.max(1, time - Date.now() + 1)));
}

test('a token that expires in 1 s works until then, and is refused right after, though it was cached', async () => {
  const { token, info } = await gateway.registry.tokens.create(gateway.admin, { expiresInMs: 1_000 });
  const expiresAt = Date.parse(info.expiresAt ?? '');
  expect(expiresAt - Date.now()).toBeLessThan(TOKEN_CACHE_TTL_MS);
  // Verified once, so the gateway now remembers it.
  expect((await gateway.api('/api/me', { token })).status).toBe(200);
  expect((await gateway.api('/api/me', { token })).status).toBe(200);
  await clockPast(expiresAt, 2_000);
  const response = await gateway.api('/api/me', { token });
  expect(response.status).toBe(401);
  expect(((await response.json()) as { error: { message: string } }).error.message).toContain('expired');
});

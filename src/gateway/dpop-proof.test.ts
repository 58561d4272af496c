/**
 * The used-proof record outlives every replica's window for the proof: a proof is taken while its `iat`
 * is within 300 s of the checking replica's clock, so its `jti` must be remembered until `iat` + 300 s
 * and a margin for clocks that differ — also when the client's clock runs ahead (a future `iat`).
 */
import { createHash, randomUUID } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { expect, test } from 'vitest';
import { checkDpopProof, DPOP_PROOF_WINDOW_S } from './dpop-proof.js';

const URL = 'http://127.0.0.1:9/mcp';
const TOKEN = 'access-token';

test.each([
  ['on time', 0],
  ['from a client clock 300 s ahead', DPOP_PROOF_WINDOW_S],
  ['from a client clock 299 s behind', -DPOP_PROOF_WINDOW_S + 1],
])('a proof made %s is remembered past the end of its window, with a window to spare', async (_what, skew) => {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = await exportJWK(publicKey);
  const now = 1_800_000_000;
  const iat = now + skew;
  const proof = await new SignJWT({ htm: 'POST', htu: URL, iat, jti: randomUUID(), ath: createHash('sha256').update(TOKEN).digest('base64url') })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
    .sign(privateKey);
  const claims: number[] = [];
  await checkDpopProof({ proof, method: 'POST', url: URL, accessToken: TOKEN, boundKey: await calculateJwkThumbprint(jwk), now, claim: async (_key, expiresInS) => claims.push(expiresInS) > 0 });
  expect(claims).toHaveLength(1);
  // Taken until iat + window on a replica whose clock agrees; remembered a further window for one that runs behind.
  expect(now + (claims[0] ?? 0)).toBeGreaterThanOrEqual(iat + 2 * DPOP_PROOF_WINDOW_S);
});

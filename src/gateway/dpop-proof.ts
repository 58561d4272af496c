/**
 * @module gateway/dpop-proof
 * The resource-server side of DPoP (RFC 9449 §7): a request that presents a DPoP-bound access token
 * (`Authorization: DPoP <token>`) carries in its `DPoP` header a fresh proof, a JWT signed by the key
 * the token is bound to. Checked here: the JWS and its embedded public key (`typ` `dpop+jwt`, an
 * asymmetric algorithm), `htm` and `htu` (this request's method and URL, without query and fragment),
 * `iat` within {@link DPOP_PROOF_WINDOW_S}, `ath` (the token's hash), the key's thumbprint against the
 * token's binding, and `jti` used once — through `claim`, which the gateway backs with the registry so
 * a proof replayed to another replica is refused as well. A stolen token is useless without the key.
 */

import { hash } from 'node:crypto';
import { calculateJwkThumbprint, EmbeddedJWK, jwtVerify, type JWTPayload } from 'jose';
import { ErrorCode, SwitchboardError } from '../errors.js';

/** Algorithms of the proofs accepted (as the gateway's authorization server offers them). */
export const DPOP_ALGORITHMS = ['ES256', 'EdDSA', 'Ed25519'] as const;
/** The registry record of a used proof (`oauth_records.model`). */
export const DPOP_PROOF_RECORD = 'DPoPProof';
/** How far a proof's `iat` may be from now, in seconds (as oidc-provider's token endpoint allows). @default 300 */
export const DPOP_PROOF_WINDOW_S = 300;

/** What a proof is checked against. */
export interface DpopProofCheck {
  /** The `DPoP` header (null when absent). */
  proof: string | null;
  method: string;
  /** The URL the client addressed (the gateway's public origin and the request's path). */
  url: string;
  accessToken: string;
  /** The token's binding: the JWK SHA-256 thumbprint (`cnf.jkt`). */
  boundKey: string;
  /** Records `jti` as used until `expiresInS` from now; false when it was used already. */
  claim: (jti: string, expiresInS: number) => Promise<boolean>;
  /** Seconds since the epoch. */
  now?: number;
}

/** Throws UNAUTHORIZED, with `details.dpopError`, unless the request's proof holds. */
export async function checkDpopProof(check: DpopProofCheck): Promise<void> {
  if (check.proof === null || check.proof === '') throw proofError('invalid_dpop_proof', 'the request has no DPoP header', 'a DPoP-bound token needs a DPoP proof for every request (RFC 9449 §7)');
  let payload: JWTPayload;
  let jwk: Parameters<typeof calculateJwkThumbprint>[0];
  try {
    const verified = await jwtVerify(check.proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: [...DPOP_ALGORITHMS] });
    payload = verified.payload;
    jwk = verified.protectedHeader.jwk ?? {};
  } catch (error) {
    // jose's reason (bad signature, wrong typ…), never the proof.
    throw proofError('invalid_dpop_proof', `the DPoP proof is not a valid dpop+jwt signed with ${DPOP_ALGORITHMS.join(', ')} (${(error as { code?: string }).code ?? 'invalid'})`);
  }
  const now = check.now ?? Math.floor(Date.now() / 1000);
  if (typeof payload.iat !== 'number' || Math.abs(now - payload.iat) > DPOP_PROOF_WINDOW_S) throw proofError('invalid_dpop_proof', `the DPoP proof's iat is not within ${DPOP_PROOF_WINDOW_S} s of the gateway's clock`);
  if (typeof payload.jti !== 'string' || payload.jti === '' || payload.jti.length > 256) throw proofError('invalid_dpop_proof', 'the DPoP proof has no jti');
  if (payload.nonce !== undefined) throw proofError('invalid_dpop_proof', 'the gateway issues no DPoP nonces: make the proof without one');
  if (payload.htm !== check.method) throw proofError('invalid_dpop_proof', `the DPoP proof's htm is not this request's method (${check.method})`);
  if (typeof payload.htu !== 'string' || withoutQuery(payload.htu) !== withoutQuery(check.url)) throw proofError('invalid_dpop_proof', `the DPoP proof's htu is not this request's URL (${withoutQuery(check.url)})`);
  if (payload.ath !== hash('sha256', check.accessToken, 'base64url')) throw proofError('invalid_dpop_proof', "the DPoP proof's ath is not the hash of this access token");
  if ((await calculateJwkThumbprint(jwk)) !== check.boundKey) throw proofError('invalid_token', 'the access token is bound to another DPoP key than the one that signed the proof');
  // Remembered until every replica's window for this proof has closed: iat + the window on a clock that
  // agrees, one window more for a clock behind (a client clock ahead of ours gives a future iat).
  if (!(await check.claim(`${check.boundKey}:${payload.jti}`, Math.max(0, payload.iat - now) + 2 * DPOP_PROOF_WINDOW_S))) throw proofError('invalid_dpop_proof', 'this DPoP proof was used already: make a new one (a new jti) for every request');
}

/** The `WWW-Authenticate` challenge of DPoP: the algorithms, and the error of a refused proof or token. */
export function dpopChallenge(error?: { dpopError: string; description: string }): string {
  const algs = `algs="${DPOP_ALGORITHMS.join(' ')}"`;
  return error === undefined ? `DPoP ${algs}` : `DPoP error="${error.dpopError}", error_description="${error.description.replace(/["\\]/g, "'")}", ${algs}`;
}

/** The `dpopError` of a refusal made here, or undefined. */
export function dpopErrorOf(error: unknown): { dpopError: string; description: string } | undefined {
  if (!(error instanceof SwitchboardError) || typeof error.details.dpopError !== 'string') return undefined;
  return { dpopError: error.details.dpopError, description: error.reason };
}

/** A 401 with the RFC 9449 error code in `details.dpopError`. */
export function proofError(dpopError: 'invalid_dpop_proof' | 'invalid_token', message: string, hint = 'send Authorization: DPoP <token> and a fresh DPoP proof for this request, signed with the key the token was issued to'): SwitchboardError {
  return new SwitchboardError(ErrorCode.Unauthorized, message, { hint, details: { dpopError } });
}

function withoutQuery(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '';
  }
  parsed.search = '';
  parsed.hash = '';
  return parsed.href;
}

/**
 * @module auth/dpop-keys
 * The DPoP signing key of one server's OAuth client (RFC 9449, SEP-1932). DPoP is used when the
 * authorization server advertises `dpop_signing_alg_values_supported` with an algorithm the SDK can
 * sign with; the key is made once and kept in the OAuth record (encrypted at rest, like the tokens),
 * because a DPoP-bound token works only with the key it was bound to: `switchboard login` and every
 * later process must sign with the same one.
 */

import { DPOP_SUPPORTED_ALGS, DpopSession, generateDpopKeyPair, type AuthorizationServerMetadata, type DpopKeyPair } from '@modelcontextprotocol/client';
import { calculateJwkThumbprint, exportJWK, importJWK, type JWK } from 'jose';

/** A DPoP algorithm the SDK signs with. */
export type DpopAlg = (typeof DPOP_SUPPORTED_ALGS)[number];

/** The stored key: its algorithm and private JWK. Secret. */
export interface StoredDpopKey {
  alg: DpopAlg;
  privateJwk: JWK;
}

/** What the keys read of the OAuth record. */
export interface DpopRecord {
  dpopKey?: StoredDpopKey;
  discoveryState?: { authorizationServerMetadata?: AuthorizationServerMetadata };
}

/** The algorithm to use with this authorization server (ES256 when offered), or undefined: no DPoP. */
export function dpopAlgFor(metadata: AuthorizationServerMetadata | undefined): DpopAlg | undefined {
  const offered = (metadata as { dpop_signing_alg_values_supported?: unknown } | undefined)?.dpop_signing_alg_values_supported;
  if (!Array.isArray(offered)) return undefined;
  return DPOP_SUPPORTED_ALGS.find((alg) => alg === 'ES256' && offered.includes(alg)) ?? DPOP_SUPPORTED_ALGS.find((alg) => offered.includes(alg));
}

/** The DPoP session of one provider: made on first use from the stored key, or with a new key that is stored. */
export class DpopKeys {
  readonly #read: () => Promise<DpopRecord>;
  readonly #store: (key: StoredDpopKey) => Promise<void>;
  #session: Promise<DpopSession> | undefined;

  constructor(read: () => Promise<DpopRecord>, store: (key: StoredDpopKey) => Promise<void>) {
    this.#read = read;
    this.#store = store;
  }

  /** The session, or undefined when this server's authorization server does not do DPoP. */
  async session(): Promise<DpopSession | undefined> {
    if (this.#session !== undefined) return this.#session;
    const record = await this.#read();
    const stored = record.dpopKey;
    const alg = stored?.alg ?? dpopAlgFor(record.discoveryState?.authorizationServerMetadata);
    if (alg === undefined) return undefined;
    this.#session ??= this.#open(stored, alg).catch((error: unknown) => {
      this.#session = undefined;
      throw error;
    });
    return this.#session;
  }

  /** Forgets the session (the record was dropped): the next one is made afresh. */
  forget(): void {
    this.#session = undefined;
  }

  async #open(stored: StoredDpopKey | undefined, alg: DpopAlg): Promise<DpopSession> {
    if (stored !== undefined) return DpopSession.create({ keyPair: await loadKeyPair(stored) });
    const keyPair = await generateDpopKeyPair({ alg, extractable: true });
    await this.#store({ alg, privateJwk: await exportJWK(keyPair.privateKey) });
    return DpopSession.create({ keyPair });
  }
}

async function loadKeyPair({ alg, privateJwk }: StoredDpopKey): Promise<DpopKeyPair> {
  // The public JWK is the private one without its private members (EC/OKP `d`; RSA `d`, primes and exponents).
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = privateJwk;
  const [privateKey, publicKey] = await Promise.all([importJWK(privateJwk, alg), importJWK(publicJwk, alg)]);
  // A symmetric JWK imports as bytes; DPoP keys are asymmetric (RFC 9449 §11.6).
  if (privateKey instanceof Uint8Array || publicKey instanceof Uint8Array) throw new TypeError('a DPoP key must be an asymmetric key');
  return { privateKey, publicKey, publicJwk, thumbprint: await calculateJwkThumbprint(publicJwk, 'sha256'), alg };
}

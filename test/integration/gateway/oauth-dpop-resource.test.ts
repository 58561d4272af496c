/**
 * DPoP (RFC 9449) at the gateway, over a real socket: its authorization server binds a token to the
 * key of the proof sent to its token endpoint, and /mcp then accepts that token only as
 * `Authorization: DPoP` with a fresh proof of the same key — each way of getting the proof wrong is
 * refused with the RFC's error in a DPoP challenge, a proof is used once (also across two gateways
 * on one registry, SQLite or PostgreSQL) — a retry one replica forwards to the replica holding its call
 * is taken there on the strength of the signed hop, which a forged one is not — and neither the fast path's token memo nor a Bearer header gets around it.
 */
import { createHash, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { HOP_HEADER, HOP_KEY_PURPOSE, ReplicaHop } from '../../../src/gateway/replica-hop.js';
import type { RegistryUser } from '../../../src/registry/index.js';
import { startGateway, type RunningGateway } from '../../../src/gateway/serve.js';
import { noopLogger } from '../../../src/logger.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { FIXTURES, KITCHEN_SINK } from '../../helpers/fixtures.js';
import { authorize, pkcePair, registerClient } from '../../helpers/oauth-flow.js';
import { backendsToTest, createTestDatabase, type TestDatabase } from '../../helpers/registry-backends.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const ASKING_SERVER = `${FIXTURES}/asking-server.mjs`;
let gateway: TestGateway;
let base: string;
let resource: string;
let alice: { user: RegistryUser; token: string };
let clientId: string;

interface ProofKey {
  privateKey: CryptoKey;
  jwk: JWK;
}

async function proofKey(): Promise<ProofKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { privateKey, jwk: await exportJWK(publicKey) };
}

/** A DPoP proof; `claims` overrides or removes (undefined) any of its claims. */
function proof(key: ProofKey, htm: string, htu: string, accessToken: string | undefined, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}): Promise<string> {
  const all: Record<string, unknown> = { htm, htu, iat: Math.floor(Date.now() / 1000), jti: randomUUID(), ...(accessToken === undefined ? {} : { ath: createHash('sha256').update(accessToken).digest('base64url') }), ...claims };
  const payload = Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined));
  return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk, ...header }).sign(key.privateKey);
}

/** alice's tokens, bound to `key` by the proof sent with the code. */
async function boundTokens(key: ProofKey, scope = 'mcp'): Promise<{ access: string; tokenType: unknown }> {
  const pkce = pkcePair();
  const outcome = await authorize(base, { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, scope, state: 's', code_challenge: pkce.challenge, code_challenge_method: 'S256', resource }, { token: alice.token });
  if (outcome.kind !== 'redirect') throw new Error(`no redirect: ${outcome.status}`);
  const code = outcome.url.searchParams.get('code') ?? '';
  const response = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: await proof(key, 'POST', `${base}/oauth/token`, undefined) },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: pkce.verifier, client_id: clientId, redirect_uri: REDIRECT, resource }).toString(),
  });
  const body = (await response.json()) as { access_token?: string; token_type?: unknown };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return { access: body.access_token ?? '', tokenType: body.token_type };
}

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const echo = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { message: 'bound' }, _meta: meta } };
/** A stateless 2026-07-28 tools/call (the fast path's kind) to `url` with these headers. */
function post(url: string, headers: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo', ...headers }, body: JSON.stringify(echo), signal: AbortSignal.timeout(10_000) });
}
/** A well-formed hop header of no replica of this cluster (its MAC is made up). */
const FORGED_HOP = `v2.${Date.now()}.${'A'.repeat(22)}.${randomUUID()}.${'A'.repeat(43)}`;
/** The id of an answer of the fast path (the general path's ids are UUIDs). */
const FAST_ID = /^f[0-9a-f]{8}-/;

for (const { kind, skip } of await backendsToTest()) {
  describe.skipIf(skip !== undefined)(`DPoP-bound tokens on /mcp, registry on ${kind}${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
    let database: TestDatabase;

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      gateway = await startTestGateway({ db: database.db, servers: { sink: { command: process.execPath, args: [KITCHEN_SINK] }, asking: { command: process.execPath, args: [ASKING_SERVER] } } });
      base = gateway.url;
      resource = `${base}/mcp`;
      alice = await gateway.addUser('alice');
      const registered = await registerClient(base, { redirect_uris: [REDIRECT] });
      clientId = String(((await registered.json()) as { client_id: string }).client_id);
    }, 60_000);

    afterAll(async () => {
      await gateway?.close();
      await database?.drop();
    });

    test('the authorization server offers DPoP and binds the token; /mcp serves it with a proof of the key, as often as there are fresh proofs', async () => {
      const metadata = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
      expect(metadata.dpop_signing_alg_values_supported).toEqual(expect.arrayContaining(['ES256']));
      const key = await proofKey();
      const { access, tokenType } = await boundTokens(key);
      expect(tokenType).toBe('DPoP');
      for (let round = 0; round < 3; round++) {
        const answer = await post(resource, { authorization: `DPoP ${access}`, dpop: await proof(key, 'POST', resource, access) });
        expect(answer.status, await answer.clone().text()).toBe(200);
        expect(await answer.text()).toContain('"text":"bound"');
      }
    });

    test('each wrong proof is refused with invalid_dpop_proof (or invalid_token for the key), in a DPoP challenge that still names the metadata', async () => {
      const key = await proofKey();
      const { access } = await boundTokens(key);
      const other = await proofKey();
      const now = Math.floor(Date.now() / 1000);
      const cases: Array<[string, Record<string, string>, string, RegExp]> = [
        ['no proof', { authorization: `DPoP ${access}` }, 'invalid_dpop_proof', /has no DPoP header/],
        ['as Bearer', { authorization: `Bearer ${access}`, dpop: await proof(key, 'POST', resource, access) }, 'invalid_token', /bound to a DPoP key and was sent as a Bearer token/],
        ['another key', { authorization: `DPoP ${access}`, dpop: await proof(other, 'POST', resource, access) }, 'invalid_token', /bound to another DPoP key/],
        ['another method', { authorization: `DPoP ${access}`, dpop: await proof(key, 'GET', resource, access) }, 'invalid_dpop_proof', /htm is not this request's method/],
        ['another URL', { authorization: `DPoP ${access}`, dpop: await proof(key, 'POST', `${base}/api/me`, access) }, 'invalid_dpop_proof', /htu is not this request's URL/],
        ['no ath', { authorization: `DPoP ${access}`, dpop: await proof(key, 'POST', resource, undefined) }, 'invalid_dpop_proof', /ath is not the hash/],
        ['old', { authorization: `DPoP ${access}`, dpop: await proof(key, 'POST', resource, access, { iat: now - 600 }) }, 'invalid_dpop_proof', /iat is not within 300 s/],
        ['no jti', { authorization: `DPoP ${access}`, dpop: await proof(key, 'POST', resource, access, { jti: undefined }) }, 'invalid_dpop_proof', /has no jti/],
        ['wrong typ', { authorization: `DPoP ${access}`, dpop: await proof(key, 'POST', resource, access, {}, { typ: 'JWT' }) }, 'invalid_dpop_proof', /not a valid dpop\+jwt/],
        ['a static API token as DPoP', { authorization: `DPoP ${alice.token}`, dpop: await proof(key, 'POST', resource, alice.token) }, 'invalid_token', /not DPoP-bound/],
      ];
      for (const [what, headers, error, message] of cases) {
        const answer = await post(resource, headers);
        expect(answer.status, what).toBe(401);
        const challenge = answer.headers.get('www-authenticate') ?? '';
        expect(challenge, what).toMatch(new RegExp(`^DPoP error="${error}", error_description="[^"]+", algs="ES256 EdDSA Ed25519", Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`));
        const body = (await answer.json()) as { error: { message: string } };
        expect(body.error.message, what).toMatch(message);
        expect(JSON.stringify(body), what).not.toContain(access);
      }
      // None of these used the token up: a good proof still works.
      expect((await post(resource, { authorization: `DPoP ${access}`, dpop: await proof(key, 'POST', resource, access) })).status).toBe(200);
    });

    test('a proof is used once: replayed to this gateway or to another one on the same registry, it is refused', async () => {
      const key = await proofKey();
      const { access } = await boundTokens(key);
      let replica: RunningGateway | undefined;
      try {
        // A second replica: the same registry and public URL, its own socket.
        replica = await startGateway({ registry: gateway.registry, port: 0, logger: noopLogger, oauth: { issuer: base } });
        const once = await proof(key, 'POST', resource, access);
        expect((await post(resource, { authorization: `DPoP ${access}`, dpop: once })).status).toBe(200);
        for (const url of [resource, `${replica.url}/mcp`]) {
          const replayed = await post(url, { authorization: `DPoP ${access}`, dpop: once });
          expect(replayed.status, url).toBe(401);
          expect(((await replayed.json()) as { error: { message: string } }).error.message, url).toMatch(/was used already/);
        }
        // The replica serves the token with a fresh proof: the binding is the registry's, not one process's.
        expect((await post(`${replica.url}/mcp`, { authorization: `DPoP ${access}`, dpop: await proof(key, 'POST', resource, access) })).status).toBe(200);
      } finally {
        await replica?.close({ deadlineMs: 0 });
      }
    });

    test('a retry sent to another replica is forwarded to the one holding the call, which takes the token without a second proof', async () => {
      const key = await proofKey();
      const { access } = await boundTokens(key);
      let replica: RunningGateway | undefined;
      const ask = async (url: string, extra: Record<string, unknown>): Promise<Record<string, unknown>> => {
        const answer = await fetch(url, {
          method: 'POST',
          headers: { authorization: `DPoP ${access}`, dpop: await proof(key, 'POST', resource, access), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'asking__ask_name' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'asking__ask_name', arguments: {}, _meta: { ...meta, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } }, ...extra } }),
          signal: AbortSignal.timeout(15_000),
        });
        return (await answer.json()) as Record<string, unknown>;
      };
      try {
        replica = await startGateway({ registry: gateway.registry, port: 0, logger: noopLogger, oauth: { issuer: base } });
        const asked = await ask(resource, {});
        const state = (asked.result as { requestState?: unknown } | undefined)?.requestState;
        expect(typeof state, JSON.stringify(asked)).toBe('string');
        // The replica checks (and uses up) the proof, then hands the request on with its signed hop.
        const done = await ask(`${replica.url}/mcp`, { requestState: state, inputResponses: { q1: { action: 'accept', content: { name: 'Ada' } } } });
        expect(JSON.stringify(done)).toContain('hello Ada');
      } finally {
        await replica?.close({ deadlineMs: 0 });
      }
    });

    test('a hop header does not stand in for the proof: forged, on /mcp, it is refused', async () => {
      const key = await proofKey();
      const { access } = await boundTokens(key);
      const forged = await post(resource, { authorization: `DPoP ${access}`, [HOP_HEADER]: FORGED_HOP });
      expect(forged.status).toBe(403);
      expect(await forged.text()).toMatch(/hop header that is not signed by this cluster/);
      const elsewhere = await fetch(`${base}/api/me`, { headers: { authorization: `DPoP ${access}`, [HOP_HEADER]: FORGED_HOP } });
      expect(elsewhere.status).toBe(401);
    });

    test('a genuine hop read off the wire and sent here without a proof reaches no session of its user: for another replica it ends as interrupted; with a session id it is refused', async () => {
      const key = await proofKey();
      const { access } = await boundTokens(key);
      // alice's own 2025-era session on this gateway.
      const opened = await fetch(resource, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
        signal: AbortSignal.timeout(10_000),
      });
      const session = opened.headers.get('mcp-session-id') ?? '';
      expect(session, await opened.text()).not.toBe('');
      // A retry one replica forwarded to another (gone now), signed with the cluster's key as a replica signs it.
      const gone = randomUUID();
      const body = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'sink__echo', arguments: { message: 'REPLAYED' }, requestState: `${gone}.x` } });
      const signer = new ReplicaHop(randomUUID(), gateway.registry.derivedKey(HOP_KEY_PURPOSE), gateway.registry.cluster);
      const hop = signer.sign({ method: 'POST', target: '/mcp', userId: alice.user.id, body }, gone);
      const headers = { authorization: `DPoP ${access}`, [HOP_HEADER]: hop, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
      const replayed = await fetch(resource, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
      const text = await replayed.text();
      expect(replayed.status, text).toBe(200);
      expect(text).toContain('CALL_INTERRUPTED');
      // With a session id (not under the MAC), whether the hop names another replica or this one (a copy that
      // got here before the forwarder's): refused, the call does not run in alice's session.
      const own = signer.sign({ method: 'POST', target: '/mcp', userId: alice.user.id, body }, gateway.running.gateway.replica.id);
      for (const header of [signer.sign({ method: 'POST', target: '/mcp', userId: alice.user.id, body }, gone), own]) {
        const steered = await fetch(resource, { method: 'POST', headers: { ...headers, [HOP_HEADER]: header, 'mcp-session-id': session }, body, signal: AbortSignal.timeout(10_000) });
        const refusal = await steered.text();
        expect(steered.status, refusal).toBe(403);
        expect(refusal).toContain('carries no session id');
        expect(refusal).not.toContain('REPLAYED');
      }
    });

    test('a forged hop is refused before anything of the user is looked at: with /mcp off, no route names their endpoints or reads their scopes', async () => {
      const key = await proofKey();
      const { access } = await boundTokens(key);
      const forgedHop = FORGED_HOP;
      // A list-only token calling a tool: the hop is refused, not the scope (which would tell what the token holds).
      const listOnly = await boundTokens(key, 'mcp:read');
      const scoped = await post(resource, { authorization: `DPoP ${listOnly.access}`, [HOP_HEADER]: forgedHop });
      expect(scoped.status).toBe(403);
      expect(await scoped.text()).toMatch(/hop header that is not signed by this cluster/);
      const registry = gateway.registry;
      await registry.access.putEndpoint('alice-private-reads', { servers: ['sink'], access: { users: ['alice'] } });
      await registry.access.setEverythingEndpoint(false);
      const mcpOff = async (off: boolean): Promise<void> => {
        // The gateway follows the registry's switch through its change feed: wait (bounded) until it has.
        await vi.waitFor(async () => expect(await (await post(resource, { authorization: `Bearer ${alice.token}` })).text()).toMatch(off ? /turned \/mcp off/ : /"text":"bound"/), { timeout: 15_000, interval: 50 });
      };
      try {
        await mcpOff(true);
        const forged = { authorization: `DPoP ${access}`, [HOP_HEADER]: forgedHop };
        const requests: Array<[string, string]> = [['POST', resource], ['GET', resource], ['DELETE', resource], ['POST', `${base}/mcp/e/alice-private-reads`], ['POST', `${base}/mcp/e/no-such-endpoint`]];
        for (const [method, url] of requests) {
          const answer = method === 'POST' ? await post(url, forged) : await fetch(url, { method, headers: { accept: 'application/json, text/event-stream', 'mcp-session-id': 's1.x', ...forged }, signal: AbortSignal.timeout(10_000) });
          const text = await answer.text();
          expect(answer.status, `${method} ${url}: ${text}`).toBe(403);
          expect(text, `${method} ${url}`).toMatch(/hop header that is not signed by this cluster/);
          expect(text, `${method} ${url}`).not.toContain('alice-private-reads');
        }
      } finally {
        await registry.access.setEverythingEndpoint(true);
        await registry.access.removeEndpoint('alice-private-reads');
        await mcpOff(false);
      }
    });

    test('once verified and remembered, the token still needs a proof: a Bearer request on the same connection is refused', async () => {
      const key = await proofKey();
      const { access } = await boundTokens(key);
      // A static token's call of this shape is the fast path's (so the refusal below is not the general path's by chance).
      expect((await post(resource, { authorization: `Bearer ${alice.token}` })).headers.get('x-request-id')).toMatch(FAST_ID);
      expect((await post(resource, { authorization: `DPoP ${access}`, dpop: await proof(key, 'POST', resource, access) })).status).toBe(200);
      // Within the token cache's 5 s: the fast path's memo holds the token now.
      const bearer = await post(resource, { authorization: `Bearer ${access}` });
      expect(bearer.status).toBe(401);
      expect(bearer.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_token"/);
    });
  });
}

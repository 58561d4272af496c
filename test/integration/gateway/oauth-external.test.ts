/**
 * The gateway as a pure resource server of an external authorization server (`authorization:` in the
 * config file): a small real authorization server on a socket publishes its discovery document and
 * JWKS and signs JWTs with `jose`; the gateway accepts those for the registry user the `sub` names,
 * with their scopes, and refuses a wrong audience or issuer, an expired token, a key not in the JWKS,
 * and a user it does not know; a token with `cnf.jkt` only with a DPoP proof of that key. Its own
 * authorization endpoints are gone; static tokens still work.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomUUID } from 'node:crypto';
import { SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { normalizeConfig } from '../../../src/config/normalize-config.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';

let issuerServer: Server;
let issuer: string;
let key: CryptoKey;
let stranger: CryptoKey;
let gateway: TestGateway;
let alice: { token: string };

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  key = pair.privateKey;
  ({ privateKey: stranger } = await generateKeyPair('ES256'));
  const publicJwk = await exportJWK(pair.publicKey);
  issuerServer = createServer((request, response) => {
    if (request.url === '/.well-known/openid-configuration') response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
    else if (request.url === '/jwks') response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [{ ...publicJwk, kid: 'k1', alg: 'ES256', use: 'sig' }] }));
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
  gateway = await startTestGateway({ oauth: { external: { issuer } } });
  alice = await gateway.addUser('alice');
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await new Promise<void>((resolve) => issuerServer?.close(() => resolve()));
});

function token(claims: { sub?: string; aud?: string; iss?: string; scope?: string; expiresIn?: string | number; key?: CryptoKey; jkt?: string; cnf?: Record<string, unknown> } = {}): Promise<string> {
  return new SignJWT({ scope: claims.scope ?? 'mcp', ...(claims.jkt === undefined ? {} : { cnf: { jkt: claims.jkt } }), ...(claims.cnf === undefined ? {} : { cnf: claims.cnf }) })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setSubject(claims.sub ?? 'alice')
    .setIssuer(claims.iss ?? issuer)
    .setAudience(claims.aud ?? `${gateway.url}/mcp`)
    .setIssuedAt()
    .setExpirationTime(claims.expiresIn ?? '5m')
    .sign(claims.key ?? key);
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } };
const mcp = (bearer: string, body: unknown) => gateway.api('/mcp', { token: bearer, body, headers: { accept: 'application/json, text/event-stream' } });

describe('an external authorization server', () => {
  test('the config file takes `authorization:` and names a bad one', () => {
    expect(normalizeConfig({ authorization: { issuer: 'https://idp.example/realms/mcp', userClaim: 'preferred_username' }, mcpServers: {} }, { baseDir: '/', env: {} }).config.authorization).toEqual({ issuer: 'https://idp.example/realms/mcp', userClaim: 'preferred_username' });
    expect(() => normalizeConfig({ authorization: { issuer: 'not a url' }, mcpServers: {} }, { baseDir: '/', env: {} })).toThrow(/authorization\.issuer/);
    expect(() => normalizeConfig({ authorization: { issuer: 'https://idp.example', secret: 'x' }, mcpServers: {} }, { baseDir: '/', env: {} })).toThrow(/authorization/);
  });

  test('the metadata names it; the gateway\'s own authorization endpoints are gone', async () => {
    expect(await (await fetch(`${gateway.url}/.well-known/oauth-protected-resource/mcp`)).json()).toMatchObject({ resource: `${gateway.url}/mcp`, authorization_servers: [issuer] });
    expect((await fetch(`${gateway.url}/oauth/authorize`)).status).toBe(404);
    expect((await fetch(`${gateway.url}/.well-known/oauth-authorization-server`)).status).toBe(404);
  });

  test('its JWT works as the user `sub` names, with its scopes; static tokens still work', async () => {
    const bearer = await token();
    expect(await (await gateway.api('/api/me', { token: bearer })).json()).toMatchObject({ user: { name: 'alice' } });
    expect((await mcp(bearer, initialize)).status).toBe(200);
    const reader = await token({ scope: 'mcp:read' });
    expect((await mcp(reader, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x', arguments: {} } })).status).toBe(403);
    expect((await gateway.api('/api/me', { token: alice.token })).status).toBe(200);
  });

  test('a JWT with cnf.jkt is DPoP-bound: refused as Bearer, served with a proof of that key, a proof used once', async () => {
    const holder = await generateKeyPair('ES256');
    const jwk = await exportJWK(holder.publicKey);
    const bound = await token({ jkt: await calculateJwkThumbprint(jwk) });
    const url = `${gateway.url}/api/me`;
    const proof = () =>
      new SignJWT({ htm: 'GET', htu: url, iat: Math.floor(Date.now() / 1000), jti: randomUUID(), ath: createHash('sha256').update(bound).digest('base64url') })
        .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
        .sign(holder.privateKey);
    const asBearer = await gateway.api('/api/me', { token: bound });
    expect(asBearer.status).toBe(401);
    expect(asBearer.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_token".*Bearer resource_metadata=/);
    const once = await proof();
    const get = (dpop: string) => fetch(url, { headers: { authorization: `DPoP ${bound}`, dpop } });
    const served = await get(once);
    expect(await served.json()).toMatchObject({ user: { name: 'alice' } });
    expect((await get(once)).status).toBe(401);
    expect((await get(await proof())).status).toBe(200);
  });

  test('behind a proxy that serves the gateway under a path (public URL https://gateway.example/gw), a proof names the public URL with that path', async () => {
    const publicUrl = 'https://gateway.example/gw';
    const proxied = await startTestGateway({ oauth: { external: { issuer }, issuer: publicUrl } });
    try {
      await proxied.addUser('alice');
      const holder = await generateKeyPair('ES256');
      const jwk = await exportJWK(holder.publicKey);
      const bound = await token({ aud: `${publicUrl}/mcp`, jkt: await calculateJwkThumbprint(jwk) });
      const proofFor = (htu: string) =>
        new SignJWT({ htm: 'GET', htu, iat: Math.floor(Date.now() / 1000), jti: randomUUID(), ath: createHash('sha256').update(bound).digest('base64url') })
          .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
          .sign(holder.privateKey);
      // The proxy took /gw off the path: the gateway sees /api/me, the client addressed /gw/api/me.
      const get = async (htu: string) => fetch(`${proxied.url}/api/me`, { headers: { authorization: `DPoP ${bound}`, dpop: await proofFor(htu) } });
      const served = await get(`${publicUrl}/api/me`);
      expect(served.status, await served.clone().text()).toBe(200);
      expect(await served.json()).toMatchObject({ user: { name: 'alice' } });
      // The path the gateway saw, without the public one's, is not what the client addressed.
      expect((await get('https://gateway.example/api/me')).status).toBe(401);
    } finally {
      await proxied.close();
    }
  });

  test.each([
    ['bound to a TLS client certificate (RFC 8705)', { 'x5t#S256': 'bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2' }],
    ['bound with an empty jkt', { jkt: '' }],
    ['bound in a form this gateway does not know', { kid: 'some-key' }],
  ])('a token %s is refused (401): a binding the gateway cannot check must not turn it into a bearer token', async (_name, cnf) => {
    const bound = await token({ cnf });
    expect((await gateway.api('/api/me', { token: bound })).status).toBe(401);
    expect((await mcp(bound, initialize)).status).toBe(401);
  });

  test.each([
    ['another audience', { aud: 'https://other-gateway.example/mcp' }],
    ['another issuer', { iss: 'https://evil.example' }],
    ['an expired token', { expiresIn: Math.floor(Date.now() / 1000) - 60 }],
    ['a key not in the JWKS', { key: 'stranger' as const }],
    ['a user the registry does not know', { sub: 'mallory' }],
  ])('%s is refused (401)', async (_name, claims) => {
    const { key: which, ...rest } = claims as { key?: 'stranger' } & Record<string, string | number>;
    const bearer = await token({ ...rest, ...(which === 'stranger' ? { key: stranger } : {}) });
    const response = await gateway.api('/api/me', { token: bearer });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('resource_metadata=');
  });
});

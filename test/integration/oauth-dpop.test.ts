/**
 * DPoP (RFC 9449, SEP-1932) against a real authorization server and protected MCP server on 127.0.0.1
 * (test/fixtures/servers/oauth-protected-server.mjs, which checks every proof: signature, htm, htu,
 * ath, a fresh jti, the key the token is bound to). When the authorization server offers DPoP, the
 * token request carries a proof, the token is DPoP-bound and presented as `DPoP` with a fresh proof;
 * the signing key is kept (encrypted) with the token, so a later process presents the stored token
 * with the same key, without a new login.
 */
import { randomBytes } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { FileOAuthTokenStore } from '../../src/auth/file-oauth-token-store.js';
import { MemoryOAuthTokenStore, oauthStoreKey } from '../../src/auth/oauth-token-store.js';
import type { OAuthFixture } from '../fixtures/servers/oauth-protected-server.mjs';
import { headless, oauthTestBed } from '../helpers/oauth-test-bed.js';

const bed = oauthTestBed();
const open = bed.open;
let fixture: OAuthFixture | undefined;

describe('DPoP', () => {
  test('a login gets a DPoP-bound token; every request presents it as DPoP with a proof; a later process reuses token and key', async () => {
    fixture = await bed.start({ dpop: true });
    const directory = await bed.folder('switchboard-dpop-');
    const store = new FileOAuthTokenStore({ directory, key: randomBytes(32) });
    const first = await open({ url: fixture.url }, { oauth: { store, onAuthorizationUrl: headless } });
    expect((await first.callTool('whoami', {})).content[0]).toMatchObject({ type: 'text' });
    await first.close();

    expect(fixture.log.tokenRequests).toEqual([expect.objectContaining({ grantType: 'authorization_code', dpopJkt: expect.any(String) })]);
    const withToken = fixture.log.mcp.filter((request) => request.hadToken);
    expect(withToken.length).toBeGreaterThan(0);
    expect(withToken.every((request) => request.scheme === 'DPoP' && request.proofOk === true && request.status !== 401)).toBe(true);

    // No handler now: only the stored token (and the stored key it is bound to) can work.
    const before = fixture.log.mcp.length;
    const second = await open({ url: fixture.url }, { oauth: { store } });
    await second.callTool('whoami', {});
    const later = fixture.log.mcp.slice(before);
    expect(later.length).toBeGreaterThan(0);
    // (A GET for the server's stream is answered 405 by this server; what matters is that nothing is 401.)
    expect(later.map((request) => [request.scheme, request.proofOk, request.status === 401])).toEqual(later.map(() => ['DPoP', true, false]));
    expect(fixture.log.tokenRequests).toHaveLength(1);
    expect(fixture.log.authorizations).toHaveLength(1);

    // The key is a secret of the record: not on disk in clear.
    const record = await store.get(oauthStoreKey(fixture.url, undefined));
    const privatePart = record?.dpopKey?.privateJwk.d;
    expect(privatePart).toEqual(expect.any(String));
    for (const name of await readdir(directory)) expect((await readFile(join(directory, name), 'utf8')).includes(String(privatePart))).toBe(false);
  });

  test('machine grants use it too; without DPoP on offer, tokens stay Bearer and no key is made', async () => {
    const secret = `secret-${randomBytes(8).toString('hex')}`;
    fixture = await bed.start({ dpop: true, clients: [{ id: 'm2m', secret }] });
    const connection = await open({ url: fixture.url, oauth: { grant: 'client_credentials', clientId: 'm2m', clientSecret: secret } }, {});
    expect((await connection.callTool('whoami', {})).content[0]).toMatchObject({ text: 'm2m mcp:read' });
    expect(fixture.log.tokenRequests).toEqual([expect.objectContaining({ grantType: 'client_credentials', dpopJkt: expect.any(String) })]);
    await connection.close();

    fixture = await bed.start({ clients: [{ id: 'm2m', secret }] });
    const store = new MemoryOAuthTokenStore();
    const plain = await open({ url: fixture.url, oauth: { grant: 'client_credentials', clientId: 'm2m', clientSecret: secret } }, { oauth: { store } });
    await plain.callTool('whoami', {});
    expect(fixture.log.tokenRequests).toEqual([expect.not.objectContaining({ dpopJkt: expect.anything() })]);
    expect(fixture.log.mcp.filter((request) => request.hadToken).every((request) => request.scheme === 'Bearer')).toBe(true);
    const key = oauthStoreKey(fixture.url, 'm2m');
    expect((await store.get(key))?.dpopKey).toBeUndefined();
  });
});

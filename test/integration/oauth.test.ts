/**
 * OAuth against a real authorization server and a protected MCP server on 127.0.0.1
 * (test/fixtures/servers/oauth-protected-server.mjs): discovery, registration, PKCE, the resource
 * parameter, bearer use, refresh, step-up, the retry limit, resource-mismatch refusal, client
 * credentials, the encrypted file store — and no secret in any log line.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { AuthorizationUrlHandler } from '../../src/auth/authorization-callback.js';
import { FileOAuthTokenStore } from '../../src/auth/file-oauth-token-store.js';
import { MemoryOAuthTokenStore, oauthStoreKey } from '../../src/auth/oauth-token-store.js';
import { ErrorCode } from '../../src/errors.js';
import type { OAuthFixture } from '../fixtures/servers/oauth-protected-server.mjs';
import { expectNoSecrets, headless, oauthTestBed, rejection } from '../helpers/oauth-test-bed.js';
import { recordingLogger } from '../helpers/recording-logger.js';

const bed = oauthTestBed();
const open = bed.open;
let fixture: OAuthFixture | undefined;

describe('authorization code', () => {
  test('discovers, registers, logs in with PKCE S256 and the resource parameter, then sends the bearer token', async () => {
    fixture = await bed.start();
    const logger = recordingLogger();
    const connection = await open({ url: fixture.url }, { logger, oauth: { store: new MemoryOAuthTokenStore(), onAuthorizationUrl: headless } });

    const result = await connection.callTool('whoami', {});
    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('mcp:read') });

    const { registrations, authorizations, tokenRequests, mcp } = fixture.log;
    expect(registrations).toHaveLength(1);
    expect(registrations[0]?.grant_types).toEqual(['authorization_code', 'refresh_token']);
    expect(authorizations).toHaveLength(1);
    const authorization = authorizations[0];
    expect(authorization?.code_challenge_method).toBe('S256');
    expect(authorization?.resource).toBe(fixture.url);
    expect(authorization?.state).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    // The PRM's scopes_supported, plus offline_access because the authorization server offers it.
    expect(authorization?.scope?.split(' ').sort()).toEqual(['mcp:read', 'offline_access']);
    expect(tokenRequests).toEqual([expect.objectContaining({ grantType: 'authorization_code', hasCodeVerifier: true, resource: fixture.url })]);
    expect(mcp[0]).toMatchObject({ hadToken: false, status: 401 });
    expect(mcp.slice(1).every((request) => request.hadToken && request.status !== 401)).toBe(true);
    expectNoSecrets(logger, fixture.secrets());
  });

  test('does not ask for offline_access when the authorization server does not offer it, and then cannot refresh', async () => {
    fixture = await bed.start({ asScopesSupported: ['mcp:read', 'mcp:admin'] });
    const store = new MemoryOAuthTokenStore();
    const connection = await open({ url: fixture.url }, { oauth: { store, onAuthorizationUrl: headless } });
    await connection.callTool('whoami', {});
    expect(fixture.log.authorizations[0]?.scope).toBe('mcp:read');
    const record = await connection.oauth?.provider.record();
    expect(record?.tokens?.refresh_token).toBeUndefined();
  });

  test('refreshes the token shortly before it expires, without waiting for a 401', async () => {
    fixture = await bed.start({ tokenLifetimeSeconds: 3600 });
    const store = new MemoryOAuthTokenStore();
    const connection = await open({ url: fixture.url }, { oauth: { store, onAuthorizationUrl: headless } });
    const provider = connection.oauth?.provider;
    if (provider === undefined) throw new Error('no OAuth layer');
    // Pretend the hour has almost passed: 30 s of lifetime left is inside the renewal window.
    const key = oauthStoreKey(fixture.url, undefined);
    const record = await store.get(key);
    await store.save(key, { ...record, tokensObtainedAt: Date.now() - 3_570_000 });
    await provider.reload();
    const before = fixture.log.mcp.length;

    await connection.callTool('whoami', {});

    expect(fixture.log.tokenRequests.map((request) => request.grantType)).toEqual(['authorization_code', 'refresh_token']);
    expect(fixture.log.tokenRequests[1]?.resource).toBe(fixture.url);
    expect(fixture.log.mcp.slice(before).some((request) => request.status === 401)).toBe(false);
    expect(fixture.log.authorizations).toHaveLength(1);
  });

  test('a revoked token is refreshed on the 401 and the request replayed; concurrent calls share one refresh', async () => {
    fixture = await bed.start();
    const connection = await open({ url: fixture.url }, { oauth: { store: new MemoryOAuthTokenStore(), onAuthorizationUrl: headless } });
    fixture.revokeAccessTokens();

    const results = await Promise.all([1, 2, 3, 4].map(() => connection.callTool('whoami', {})));

    expect(results.every((result) => !result.isError)).toBe(true);
    expect(fixture.log.tokenRequests.filter((request) => request.grantType === 'refresh_token')).toHaveLength(1);
    expect(fixture.log.authorizations).toHaveLength(1);
  });

  test('steps up on 403 insufficient_scope: authorizes again with the wider scope and replays the call', async () => {
    fixture = await bed.start();
    const logger = recordingLogger();
    const connection = await open({ url: fixture.url }, { logger, oauth: { store: new MemoryOAuthTokenStore(), onAuthorizationUrl: headless } });

    const result = await connection.callTool('admin_action', {});

    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(fixture.log.authorizations).toHaveLength(2);
    expect(fixture.log.authorizations[1]?.scope?.split(' ').sort()).toEqual(['mcp:admin', 'mcp:read', 'offline_access']);
    // A refresh cannot widen scope: the step-up is a new authorization, not a refresh.
    expect(fixture.log.tokenRequests.map((request) => request.grantType)).toEqual(['authorization_code', 'authorization_code']);
    expectNoSecrets(logger, fixture.secrets());
  });

  test('gives up when more scope never helps, after at most 3 authorizations, and the connection still works', async () => {
    fixture = await bed.start({ adminScope: 'mcp:root' });
    const connection = await open({ url: fixture.url }, { oauth: { store: new MemoryOAuthTokenStore(), onAuthorizationUrl: headless } });

    const error = await rejection(connection.callTool('admin_action', {}));

    expect(error.code).toBe(ErrorCode.ServerUnauthorized);
    expect(error.details).toMatchObject({ status: 403, reason: 'insufficient-scope' });
    expect(error.message).toContain('mcp:root');
    expect(fixture.log.authorizations.length).toBeLessThanOrEqual(3);
    expect((await connection.callTool('whoami', {})).isError).toBe(false);
  });

  test('refuses a server whose protected resource metadata names another resource, before any authorization', async () => {
    fixture = await bed.start({ resourceOverride: 'https://evil.example.com/mcp' });
    const error = await rejection(open({ url: fixture.url }, { oauth: { store: new MemoryOAuthTokenStore(), onAuthorizationUrl: headless } }));

    expect(error.code).toBe(ErrorCode.ServerUnauthorized);
    expect(error.details).toMatchObject({ reason: 'resource-mismatch', resource: 'https://evil.example.com/mcp' });
    expect(fixture.log.registrations).toHaveLength(0);
    expect(fixture.log.authorizations).toHaveLength(0);
    expect(fixture.log.tokenRequests).toHaveLength(0);
  });

  test('without a way to log in, fails at once with the login hint and never contacts the authorization server', async () => {
    fixture = await bed.start();
    const error = await rejection(open({ url: fixture.url, oauth: true }));

    expect(error.code).toBe(ErrorCode.ServerUnauthorized);
    expect(error.hint).toBe('run: switchboard login remote');
    expect(error.details).toMatchObject({ reason: 'login-required' });
    expect(fixture.log.registrations).toHaveLength(0);
    expect(fixture.log.authorizations).toHaveLength(0);
  });

  test('a redirect with the wrong state is refused', async () => {
    fixture = await bed.start();
    const forged: AuthorizationUrlHandler = async (url) => {
      const location = new URL(await headless(url, { server: 'remote', redirectUrl: '', signal: undefined }).then(String));
      location.searchParams.set('state', 'forged');
      return location;
    };
    const error = await rejection(open({ url: fixture.url }, { oauth: { store: new MemoryOAuthTokenStore(), onAuthorizationUrl: forged } }));

    expect(error.details).toMatchObject({ reason: 'state-mismatch' });
    expect(fixture.log.tokenRequests).toHaveLength(0);
  });
});

describe('servers that do not use OAuth', () => {
  test('with a token store offered to every server, a 401 without a Bearer challenge is left alone (an API-key server)', async () => {
    const requests: string[] = [];
    const server = createServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      response.writeHead(401, { 'www-authenticate': 'ApiKey realm="x"', 'content-type': 'application/json' }).end('{"error":"key required"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      const error = await rejection(open({ url: `http://127.0.0.1:${port}/mcp`, transport: 'http' }, { oauth: { store: new MemoryOAuthTokenStore() } }));
      expect(error.code).toBe(ErrorCode.ServerUnauthorized);
      expect(error.hint).toContain('apiKey');
      expect(requests.every((line) => line.startsWith('POST /mcp'))).toBe(true);
    } finally {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
  });
});

describe('client credentials', () => {
  test('a pre-registered client authenticates with client_secret_basic, with no person involved', async () => {
    const secret = `secret-${randomBytes(8).toString('hex')}`;
    fixture = await bed.start({ clients: [{ id: 'm2m-client', secret }] });
    const logger = recordingLogger();
    const connection = await open(
      { url: fixture.url, oauth: { grant: 'client_credentials', clientId: 'm2m-client', clientSecret: secret, scopes: ['mcp:read'] } },
      { logger },
    );

    expect((await connection.callTool('whoami', {})).content[0]).toMatchObject({ text: 'm2m-client mcp:read' });
    expect(fixture.log.tokenRequests).toEqual([
      expect.objectContaining({ grantType: 'client_credentials', authMethod: 'client_secret_basic', resource: fixture.url, scope: 'mcp:read' }),
    ]);
    expect(fixture.log.authorizations).toHaveLength(0);
    expectNoSecrets(logger, fixture.secrets());
  });

  test('picks client_credentials by itself when the server offers only that grant', async () => {
    const secret = `secret-${randomBytes(8).toString('hex')}`;
    fixture = await bed.start({ clients: [{ id: 'm2m-client', secret }], grantTypes: ['client_credentials'] });
    const connection = await open({ url: fixture.url, oauth: { clientId: 'm2m-client', clientSecret: secret } });

    await connection.callTool('whoami', {});
    expect(fixture.log.tokenRequests.map((request) => request.grantType)).toEqual(['client_credentials']);
  });

  test('a wrong secret is an authorization error naming the OAuth error, not a crash', async () => {
    fixture = await bed.start({ clients: [{ id: 'm2m-client', secret: 'right-secret' }] });
    const error = await rejection(open({ url: fixture.url, oauth: { grant: 'client_credentials', clientId: 'm2m-client', clientSecret: 'wrong-secret' } }));

    expect(error.code).toBe(ErrorCode.ServerUnauthorized);
    expect(error.details).toMatchObject({ oauthError: 'invalid_client' });
    expect(error.message).not.toContain('wrong-secret');
  });
});

describe('file token store', () => {
  test('records are encrypted and private on disk, and the next connection reuses them without a login', async () => {
    fixture = await bed.start();
    const directory = await bed.folder('switchboard-oauth-');
    const store = new FileOAuthTokenStore({ directory, key: randomBytes(32) });
    const first = await open({ url: fixture.url }, { oauth: { store, onAuthorizationUrl: headless } });
    await first.callTool('whoami', {});
    await first.close();

    const files = await readdir(directory);
    expect(files).toHaveLength(1);
    const path = join(directory, files[0] ?? '');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(directory)).mode & 0o077).toBe(0);
    const onDisk = await readFile(path, 'utf8');
    for (const secret of fixture.secrets()) expect(onDisk.includes(secret)).toBe(false);

    // No handler this time: only the stored token can work.
    const second = await open({ url: fixture.url }, { oauth: { store } });
    await second.callTool('whoami', {});
    expect(fixture.log.authorizations).toHaveLength(1);
  });

  test('a record written under another key cannot be read, and says what to do', async () => {
    const directory = await bed.folder('switchboard-oauth-');
    await new FileOAuthTokenStore({ directory, key: randomBytes(32) }).save('k', { codeVerifier: 'v'.repeat(43) });
    const error = await rejection(new FileOAuthTokenStore({ directory, key: randomBytes(32) }).get('k'));
    expect(error.message).toContain('cannot be decrypted');
    expect(error.hint).toContain('SWITCHBOARD_SECRET_KEY');

    // A record moved to another key's file fails too (the key is bound into the ciphertext).
    const store = new FileOAuthTokenStore({ directory, key: Buffer.alloc(32, 7) });
    await store.save('a', { codeVerifier: 'x'.repeat(43) });
    await store.save('b', { codeVerifier: 'y'.repeat(43) });
    const names = await readdir(directory);
    const contents = await Promise.all(names.map((name) => readFile(join(directory, name), 'utf8')));
    await Promise.all(names.map((name, index) => writeFile(join(directory, name), contents[(index + 1) % names.length] ?? '')));
    await expect(store.get('a')).rejects.toThrow(/cannot be decrypted/);
  });
});

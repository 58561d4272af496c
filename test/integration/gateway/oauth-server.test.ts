/**
 * The gateway's own OAuth authorization server over a real socket, its refusals one by one: what
 * discovery says, which clients and redirects are accepted, PKCE, resource binding, replayed codes,
 * refresh-token rotation and reuse, revocation, scopes on /mcp — and that the registry (the SQLite
 * file itself) and the logs never hold a code or a token.
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startGateway, type RunningGateway } from '../../../src/gateway/serve.js';
import { noopLogger } from '../../../src/logger.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { authorize, pkcePair, registerClient, tokenRequest, type AuthorizationOutcome } from '../../helpers/oauth-flow.js';
import { recordingLogger } from '../../helpers/recording-logger.js';
import { waitFor } from '../../helpers/processes.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const logger = recordingLogger();
let gateway: TestGateway;
let base: string;
let resource: string;
let alice: { token: string };
let clientId: string;

beforeAll(async () => {
  gateway = await startTestGateway({ logger, maxSessionsPerUser: 1000, oauth: { registration: { perHour: 30 } } });
  base = gateway.url;
  resource = `${base}/mcp`;
  alice = await gateway.addUser('alice');
  const registered = await registerClient(base, { client_name: 'Test <b>client</b>', redirect_uris: [REDIRECT] });
  expect(registered.status).toBe(201);
  clientId = String(((await registered.json()) as { client_id: string }).client_id);
}, 60_000);

afterAll(async () => {
  await gateway?.close();
});

function params(pkce: { challenge: string }, overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const all: Record<string, string | undefined> = { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, scope: 'mcp', state: 'st-1', code_challenge: pkce.challenge, code_challenge_method: 'S256', resource, ...overrides };
  return Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

function codeOf(outcome: AuthorizationOutcome): string {
  if (outcome.kind !== 'redirect') throw new Error(`no redirect: ${outcome.status} ${outcome.text.slice(0, 300)}`);
  const code = outcome.url.searchParams.get('code');
  if (code === null) throw new Error(`no code: ${outcome.url.search}`);
  return code;
}

/** A full authorization for alice: the code, then the tokens. */
async function tokensFor(scope = 'mcp'): Promise<{ access: string; refresh: string; code: string }> {
  const pkce = pkcePair();
  const code = codeOf(await authorize(base, params(pkce, { scope }), { token: alice.token }));
  const answer = await tokenRequest(base, { grant_type: 'authorization_code', code, code_verifier: pkce.verifier, client_id: clientId, redirect_uri: REDIRECT, resource });
  expect(answer.status).toBe(200);
  return { access: String(answer.body.access_token), refresh: String(answer.body.refresh_token), code };
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } };
const mcpHeaders = { accept: 'application/json, text/event-stream' };
const mcp = (token: string, body: unknown) => gateway.api('/mcp', { token, body, headers: mcpHeaders });

describe('discovery', () => {
  test('protected resource metadata (root and /mcp), RFC 8414 and OpenID metadata name this gateway', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ resource, authorization_servers: [base], scopes_supported: ['mcp', 'mcp:read'] });
    }
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const metadata = (await (await fetch(`${base}${path}`)).json()) as Record<string, unknown>;
      expect(metadata).toMatchObject({ issuer: base, authorization_endpoint: `${base}/oauth/authorize`, token_endpoint: `${base}/oauth/token`, registration_endpoint: `${base}/oauth/register`, code_challenge_methods_supported: ['S256'], response_types_supported: ['code'] });
      // DPoP-bound tokens for the clients that ask (/mcp checks their proofs: oauth-dpop-resource.test.ts).
      expect(metadata.dpop_signing_alg_values_supported).toEqual(expect.arrayContaining(['ES256']));
    }
  });

  test('a 401 on /mcp points at the metadata', async () => {
    const response = await gateway.api('/mcp', { token: null, body: initialize, headers: mcpHeaders });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="mcp"`);
  });
});

describe('clients and redirects', () => {
  test('registration refuses http off loopback, javascript: and fragments; accepts loopback and https', async () => {
    for (const uri of ['http://evil.example/cb', 'javascript:alert(1)', 'https://ok.example/cb#frag']) {
      const response = await registerClient(base, { redirect_uris: [uri] });
      expect(response.status, uri).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_client_metadata' });
    }
    expect((await registerClient(base, { redirect_uris: ['https://claude.ai/api/mcp/auth_callback'] })).status).toBe(201);
  });

  test('an unknown client and a redirect URI that is not registered exactly get an error page, never a redirect', async () => {
    const pkce = pkcePair();
    for (const overrides of [{ client_id: 'no-such-client' }, { redirect_uri: 'http://127.0.0.1:9/other' }, { redirect_uri: `${REDIRECT}/` }]) {
      const outcome = await authorize(base, params(pkce, overrides), { token: alice.token });
      expect(outcome.kind, JSON.stringify(overrides)).toBe('page');
      if (outcome.kind === 'page') expect(outcome.status).toBe(400);
    }
  });

  test('a client ID metadata document on a private address is refused', async () => {
    const outcome = await authorize(base, params(pkcePair(), { client_id: 'https://127.0.0.1:1/client.json' }), { token: alice.token });
    expect(outcome.kind).toBe('page');
    if (outcome.kind === 'page') expect(outcome.text).toMatch(/invalid_client/);
  });
});

describe('authorization requests', () => {
  test('without PKCE, with plain PKCE, without or with another resource: an error back to the client, with its state', async () => {
    const pkce = pkcePair();
    const cases: Array<[Record<string, string | undefined>, string]> = [
      [{ code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request'],
      [{ code_challenge_method: 'plain', code_challenge: pkce.verifier }, 'invalid_request'],
      [{ resource: undefined }, 'invalid_target'],
      [{ resource: 'http://127.0.0.1:1/mcp' }, 'invalid_target'],
    ];
    for (const [overrides, error] of cases) {
      const outcome = await authorize(base, params(pkce, overrides), { token: alice.token });
      expect(outcome.kind, JSON.stringify(overrides)).toBe('redirect');
      if (outcome.kind === 'redirect') {
        expect(outcome.url.searchParams.get('error'), JSON.stringify(overrides)).toBe(error);
        expect(outcome.url.searchParams.get('state')).toBe('st-1');
      }
    }
  });

  test('a wrong gateway token stays on the sign-in page; Deny sends access_denied back', async () => {
    const wrong = await authorize(base, params(pkcePair()), { token: 'sb_000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(wrong).toMatchObject({ kind: 'page', status: 401 });
    if (wrong.kind === 'page') expect(wrong.text).toContain('That token is unknown');
    const denied = await authorize(base, params(pkcePair()), { token: alice.token, deny: true });
    expect(denied.kind === 'redirect' && denied.url.searchParams.get('error')).toBe('access_denied');
  });

  test('a wrong code verifier is refused; a replayed code is refused and revokes what the first use made', async () => {
    const pkce = pkcePair();
    const code = codeOf(await authorize(base, params(pkce), { token: alice.token }));
    const form = { grant_type: 'authorization_code', code, client_id: clientId, redirect_uri: REDIRECT, resource };
    expect(await tokenRequest(base, { ...form, code_verifier: pkcePair().verifier })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const pkce2 = pkcePair();
    const code2 = codeOf(await authorize(base, params(pkce2), { token: alice.token }));
    const form2 = { grant_type: 'authorization_code', code: code2, client_id: clientId, redirect_uri: REDIRECT, resource, code_verifier: pkce2.verifier };
    const first = await tokenRequest(base, form2);
    expect(first.status).toBe(200);
    expect((await mcp(String(first.body.access_token), initialize)).status).toBe(200);
    expect(await tokenRequest(base, form2)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // At once: the gateway's token cache forgets it with the revocation.
    expect((await mcp(String(first.body.access_token), initialize)).status).toBe(401);
  });
});

describe('tokens', () => {
  test('an access token works on /mcp and /api as its user; the consent page named the client escaped', async () => {
    const { access } = await tokensFor();
    expect((await mcp(access, initialize)).status).toBe(200);
    const me = await gateway.api('/api/me', { token: access });
    expect(await me.json()).toMatchObject({ user: { name: 'alice' } });
    // Static tokens keep working beside it.
    expect((await mcp(alice.token, initialize)).status).toBe(200);
  });

  test('mcp:read lists but cannot call: 403 insufficient_scope with the scope to ask for', async () => {
    const { access } = await tokensFor('mcp:read');
    expect((await mcp(access, initialize)).status).toBe(200);
    const call = await mcp(access, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x', arguments: {} } });
    expect(call.status).toBe(403);
    expect(call.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="mcp"`);
    // Nor through the API or the metrics: the user approved listing tools on /mcp, not their account.
    const refused: Array<[string, Parameters<typeof gateway.api>[1]]> = [
      ['/api/tools/x/call', { method: 'POST', body: { arguments: {} } }],
      ['/api/servers', { method: 'POST', body: { name: 'evil', command: 'true' } }],
      ['/api/me', {}],
      ['/api/events', {}],
      ['/metrics', {}],
    ];
    for (const [path, options] of refused) {
      const answer = await gateway.api(path, { ...options, token: access });
      expect(answer.status, path).toBe(403);
      expect(answer.headers.get('www-authenticate'), path).toContain('error="insufficient_scope"');
      expect(await answer.text(), path).toMatch(/lacks the scope \\"mcp\\"/);
    }
    const { access: full } = await tokensFor('mcp');
    expect((await gateway.api('/api/me', { token: full })).status).toBe(200);
  });

  test('refresh tokens rotate; reusing an old one revokes the grant (the new one stops too)', async () => {
    const { refresh } = await tokensFor();
    const form = { grant_type: 'refresh_token', client_id: clientId, resource };
    const rotated = await tokenRequest(base, { ...form, refresh_token: refresh });
    expect(rotated.status).toBe(200);
    const next = String(rotated.body.refresh_token);
    expect(next).not.toBe(refresh);
    expect(await tokenRequest(base, { ...form, refresh_token: refresh })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await tokenRequest(base, { ...form, refresh_token: next })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  test('revoking the client from the dashboard API ends its access and refresh tokens at once', async () => {
    const { access, refresh } = await tokensFor();
    expect((await mcp(access, initialize)).status).toBe(200);
    const list = (await (await gateway.api('/api/oauth/clients', { token: alice.token })).json()) as { clients: Array<{ grantId: string; clientId: string; clientName?: string; scopes: string[] }> };
    // Each fresh browser makes its own grant; the newest is the one of these tokens.
    const grant = list.clients.filter((entry) => entry.clientId === clientId).at(-1);
    expect(grant).toMatchObject({ clientName: 'Test <b>client</b>', scopes: expect.arrayContaining(['mcp']) });
    // Another user cannot revoke it; the admin sees it among everyone's.
    const bob = await gateway.addUser('bob-revoker');
    expect((await gateway.api(`/api/oauth/clients/${grant?.grantId ?? ''}`, { token: bob.token, method: 'DELETE' })).status).toBe(404);
    const all = (await (await gateway.api('/api/oauth/clients?all=true')).json()) as { clients: unknown[] };
    expect(all.clients.length).toBeGreaterThanOrEqual(list.clients.length);
    expect((await gateway.api(`/api/oauth/clients/${grant?.grantId ?? ''}`, { token: alice.token, method: 'DELETE' })).status).toBe(204);
    expect((await mcp(access, initialize)).status).toBe(401);
    expect(await tokenRequest(base, { grant_type: 'refresh_token', client_id: clientId, resource, refresh_token: refresh })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  test('another gateway on the same registry refuses this gateway\'s token (audience); an expired token is refused', async () => {
    const { access } = await tokensFor();
    let other: RunningGateway | undefined;
    try {
      other = await startGateway({ registry: gateway.registry, port: 0, logger: noopLogger, oauth: { accessTokenTtlS: 3 } });
      const otherBase = other.url;
      const refused = await fetch(`${otherBase}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json', ...mcpHeaders }, body: JSON.stringify(initialize) });
      expect(refused.status).toBe(401);
      // A short-lived token of the other gateway: valid there, then expired (3 s: issuing it under load can take over 1 s).
      const registered = (await (await registerClient(otherBase, { redirect_uris: [REDIRECT] })).json()) as { client_id: string };
      const pkce = pkcePair();
      const code = codeOf(await authorize(otherBase, { ...params(pkce, { resource: `${otherBase}/mcp` }), client_id: registered.client_id }, { token: alice.token }));
      const short = await tokenRequest(otherBase, { grant_type: 'authorization_code', code, code_verifier: pkce.verifier, client_id: registered.client_id, redirect_uri: REDIRECT, resource: `${otherBase}/mcp` });
      const post = () => fetch(`${otherBase}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${String(short.body.access_token)}`, 'content-type': 'application/json', ...mcpHeaders }, body: JSON.stringify(initialize) });
      expect((await post()).status).toBe(200);
      await waitFor(async () => (await post()).status === 401, 15_000, 'the short-lived token to expire');
    } finally {
      await other?.close({ deadlineMs: 0 });
    }
  });
});

describe('nothing usable is stored or logged', () => {
  test('the SQLite file holds no code, access or refresh token; no log line carries one', async () => {
    const { access, refresh, code } = await tokensFor();
    await gateway.api('/api/me', { token: access });
    const file = join(gateway.dir, 'switchboard.db');
    const bytes = Buffer.concat([file, `${file}-wal`].filter((path) => existsSync(path)).map((path) => readFileSync(path)));
    for (const secret of [access, refresh, code]) {
      expect(secret.length).toBeGreaterThan(20);
      expect(bytes.includes(Buffer.from(secret))).toBe(false);
    }
    // The hash of the access token is there: the search itself can find what it looks for.
    const { hashId } = await import('../../../src/registry/oauth-server-store.js');
    expect(bytes.includes(Buffer.from(hashId(access)))).toBe(true);
    const logged = JSON.stringify(logger.lines);
    expect(logged.length).toBeGreaterThan(100);
    for (const secret of [access, refresh, code, alice.token]) expect(logged.includes(secret)).toBe(false);
  });
});

describe('on PostgreSQL', () => {
  test('codes and tokens are stored only hashed in the rows', async (context) => {
    const { postgresUnavailableReason, createTestDatabase, queryPostgres } = await import('../../helpers/registry-backends.js');
    const reason = await postgresUnavailableReason();
    if (reason !== undefined) return context.skip(reason);
    const { ServerRegistry } = await import('../../../src/registry/server-registry.js');
    const database = await createTestDatabase('postgres');
    const registry = await ServerRegistry.open({ db: database.db, keyFile: join(database.dir, 'secret.key'), watch: false });
    let running: RunningGateway | undefined;
    try {
      const user = await registry.users.add('pg-alice');
      const { token } = await registry.tokens.create(user);
      running = await startGateway({ registry, port: 0, logger: noopLogger });
      const pgBase = running.url;
      const client = (await (await registerClient(pgBase, { redirect_uris: [REDIRECT] })).json()) as { client_id: string };
      const pkce = pkcePair();
      const code = codeOf(await authorize(pgBase, { ...params(pkce, { resource: `${pgBase}/mcp` }), client_id: client.client_id }, { token }));
      const answer = await tokenRequest(pgBase, { grant_type: 'authorization_code', code, code_verifier: pkce.verifier, client_id: client.client_id, redirect_uri: REDIRECT, resource: `${pgBase}/mcp` });
      expect(answer.status).toBe(200);
      const access = String(answer.body.access_token);
      const me = await fetch(`${pgBase}/api/me`, { headers: { authorization: `Bearer ${access}` } });
      expect(await me.json()).toMatchObject({ user: { name: 'pg-alice' } });
      const rows = JSON.stringify(await queryPostgres(database.db, 'select * from oauth_records'));
      expect(rows).toContain('AccessToken');
      for (const secret of [access, String(answer.body.refresh_token), code]) expect(rows.includes(secret)).toBe(false);
      const { hashId } = await import('../../../src/registry/oauth-server-store.js');
      expect(rows).toContain(hashId(access));
    } finally {
      await running?.close({ deadlineMs: 0 });
      await registry.close();
      await database.drop();
    }
  });
});

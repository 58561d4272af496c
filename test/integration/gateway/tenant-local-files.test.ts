/**
 * Issue 14, finding 1: a tenant must not make the gateway read a file of the gateway's host. The attack
 * goes through the real gateway API: a tenant registers a `client_credentials` server whose
 * `oauth.privateKeyFile` names a real private key on the host (or `oauth.assertionFile` a workload token
 * file), towards a token endpoint that records every request. It is refused (400, naming the field) before anything is read or sent, with the same
 * answer for an existing and a missing file (no file probe). The supported way — the key itself in
 * `oauth.privateKey` — works end to end and is stored encrypted, shown masked.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RegistryUser } from '../../../src/registry/registry-types.js';
import { startOAuthProtectedServer, type OAuthFixture } from '../../fixtures/servers/oauth-protected-server.mjs';
import { connectV2, startTestGateway, type TestGateway } from '../../helpers/gateway.js';

interface ApiError {
  error: { code: string; message: string; issues?: Array<{ path: string; message: string; hint?: string }>; rules?: string[] };
}

const keys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
/** The body of the PEM, without its armour lines: what must never be stored or shown in clear. */
const keyBody = keys.privateKey.split('\n').filter((line) => line !== '' && !line.startsWith('-----')).join('');

let gateway: TestGateway;
let fixture: OAuthFixture;
let tenant: { user: RegistryUser; token: string };
let hostDir: string;
let keyFile: string;

beforeAll(async () => {
  hostDir = mkdtempSync(join(tmpdir(), 'sb-host-files-'));
  keyFile = join(hostDir, 'host-signing.key');
  writeFileSync(keyFile, keys.privateKey, { mode: 0o600 });
  fixture = await startOAuthProtectedServer({ clients: [{ id: 'm2m-key', publicKey: keys.publicKey }], grantTypes: ['client_credentials'] });
  gateway = await startTestGateway();
  tenant = await gateway.addUser('mallory');
  // The fixtures listen on 127.0.0.1: this tenant may reach loopback over plain http, nothing more.
  await gateway.registry.users.setPolicy(tenant.user, { allowHttpHosts: ['127.0.0.1'], allowAddresses: ['loopback'] });
}, 30_000);

afterAll(async () => {
  await gateway?.close();
  await fixture?.close();
  rmSync(hostDir, { recursive: true, force: true });
});

const keyFileEntry = (file: string) => ({ url: fixture.url, oauth: { grant: 'client_credentials', clientId: 'm2m-key', privateKeyFile: file } });

describe('a tenant cannot name a file of the gateway host', () => {
  test('oauth.privateKeyFile is refused with 400 naming the field; nothing reaches the token endpoint', async () => {
    const response = await gateway.api('/api/servers', { token: tenant.token, body: { name: 'oracle', entry: keyFileEntry(keyFile) } });
    const body = (await response.json()) as ApiError;
    expect(response.status).toBe(400);
    expect(body.error.code).toBe('CONFIG_INVALID');
    expect(body.error.issues).toEqual([expect.objectContaining({ path: 'servers.oracle.oauth.privateKeyFile', hint: expect.stringContaining('oauth.privateKey') })]);
    expect(JSON.stringify(body)).not.toContain(hostDir);
    // Not registered, and the gateway neither read nor signed with the key: no assertion arrived.
    const listed = (await (await gateway.api('/api/servers', { token: tenant.token })).json()) as { servers: Array<{ name: string }> };
    expect(listed.servers.map((server) => server.name)).not.toContain('oracle');
    expect(fixture.log.tokenRequests).toEqual([]);
  });

  test('the answer is the same for an existing and a missing file (no file probe)', async () => {
    const existing = await gateway.api('/api/servers', { token: tenant.token, body: { name: 'probe', entry: keyFileEntry(keyFile) } });
    const missing = await gateway.api('/api/servers', { token: tenant.token, body: { name: 'probe', entry: keyFileEntry(join(hostDir, 'no-such.key')) } });
    const notKey = await gateway.api('/api/servers', { token: tenant.token, body: { name: 'probe', entry: keyFileEntry('/etc/hostname') } });
    expect([existing.status, missing.status, notKey.status]).toEqual([400, 400, 400]);
    const [a, b, c] = [await existing.text(), await missing.text(), await notKey.text()];
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(fixture.log.tokenRequests).toEqual([]);
  });

  test('an update cannot slip the file in either', async () => {
    const added = await gateway.api('/api/servers', { token: tenant.token, body: { name: 'later', entry: { url: fixture.url }, enabled: false } });
    expect(added.status).toBe(201);
    const patched = await gateway.api('/api/servers/later', { token: tenant.token, method: 'PATCH', body: { entry: keyFileEntry(keyFile), enabled: true } });
    expect(patched.status).toBe(400);
    expect(((await patched.json()) as ApiError).error.issues?.[0]?.path).toBe('servers.later.oauth.privateKeyFile');
    expect(fixture.log.tokenRequests).toEqual([]);
    expect((await gateway.api('/api/servers/later', { token: tenant.token, method: 'DELETE' })).status).toBe(204);
  });

  test('oauth.assertionFile (a workload token file, say the gateway\'s own service account token) is refused the same way', async () => {
    const tokenFile = join(hostDir, 'service-account-token');
    writeFileSync(tokenFile, 'eyJhbGciOiJSUzI1NiJ9.host-workload-token.sig', { mode: 0o600 });
    const entry = { url: fixture.url, oauth: { grant: 'jwt-bearer', clientId: 'm2m-key', assertionFile: tokenFile } };
    const response = await gateway.api('/api/servers', { token: tenant.token, body: { name: 'borrowed', entry } });
    const body = (await response.json()) as ApiError;
    expect(response.status).toBe(400);
    expect(body.error.issues).toEqual([expect.objectContaining({ path: 'servers.borrowed.oauth.assertionFile', hint: expect.stringContaining('oauth.assertion') })]);
    expect(JSON.stringify(body)).not.toContain(hostDir);
    expect(fixture.log.tokenRequests).toEqual([]);
  });

  test('every other field that takes a host path or a command is refused too, each by name', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ url: fixture.url, cwd: hostDir }, 'cwd'],
      [{ url: fixture.url, cwd: 'file:///etc' }, 'cwd'],
      [{ url: fixture.url, args: [keyFile] }, 'args'],
      [{ command: 'cat', args: [keyFile] }, 'command'],
      [{ path: keyFile }, 'path'],
    ];
    for (const [entry, field] of cases) {
      const response = await gateway.api('/api/servers', { token: tenant.token, body: { name: 'paths', entry } });
      const body = (await response.json()) as ApiError;
      expect(response.status, field).toBe(403);
      expect(body.error.rules, field).toEqual(['stdio']);
      expect(body.error.message, field).toContain(`paths.${field}`);
    }
    expect(fixture.log.tokenRequests).toEqual([]);
  });
});

describe('a tenant\'s private key is a secret value', () => {
  test('oauth.privateKey works end to end (private_key_jwt), is masked when shown and encrypted at rest', async () => {
    const entry = { url: fixture.url, oauth: { grant: 'client_credentials', clientId: 'm2m-key', privateKey: keys.privateKey } };
    const response = await gateway.api('/api/servers', { token: tenant.token, body: { name: 'signed', entry } });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ server: { name: 'signed', state: 'ready' } });
    expect(fixture.log.tokenRequests).toEqual([expect.objectContaining({ grantType: 'client_credentials', authMethod: 'private_key_jwt', clientId: 'm2m-key', assertionValid: true })]);

    const client = await connectV2(gateway.mcpUrl, tenant.token, 'legacy');
    try {
      expect(await client.callTool({ name: 'whoami', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: expect.stringContaining('m2m-key') }] });
    } finally {
      await client.close();
    }

    const listed = await (await gateway.api('/api/servers', { token: tenant.token })).text();
    expect(listed).not.toContain(keyBody.slice(0, 40));
    const shown = (JSON.parse(listed) as { servers: Array<{ name: string; entry: { oauth?: { privateKey?: string } } }> }).servers.find((server) => server.name === 'signed');
    expect(shown?.entry.oauth?.privateKey).toMatch(/^••••/);

    // The SQLite file and its WAL, byte for byte: the key is not there in clear, not even a line of it.
    const files = readdirSync(gateway.dir).filter((name) => name.startsWith('switchboard.db'));
    for (const name of files) {
      const bytes = readFileSync(join(gateway.dir, name));
      for (const line of keys.privateKey.split('\n').filter((text) => text.length > 40)) expect(bytes.includes(Buffer.from(line)), `a key line in ${name}`).toBe(false);
    }
    expect((await gateway.api('/api/servers/signed', { token: tenant.token, method: 'DELETE' })).status).toBe(204);
  }, 30_000);
});

/**
 * Issue 14, finding 6, on both backends: every secret-bearing field of a server entry (the list in
 * src/config/secret-fields.ts) is masked when shown, encrypted in the database row — read raw from
 * SQLite and PostgreSQL — and given back whole to the client that connects. OAuth client secrets,
 * private keys and ID tokens used to sit in clear in the row and come back unmasked.
 */
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { dottedPath } from '../../../src/config/field-path.js';
import { SECRET_FIELDS } from '../../../src/config/secret-fields.js';
import { ServerRegistry } from '../../../src/registry/server-registry.js';
import { backendsToTest, queryPostgres } from '../../helpers/registry-backends.js';
import { testDatabaseForEachTest } from '../../helpers/test-database-for-each-test.js';

const { privateKey: PRIVATE_KEY } = generateKeyPairSync('ec', { namedCurve: 'P-256', privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
const KEY_LINE = PRIVATE_KEY.split('\n')[1] ?? '';

/** One secret per listed field, each long enough to show its last four characters when masked. */
const SECRETS: Record<string, string> = {
  apiKey: 'api-key-0f1e2d3c4b5a69788796',
  headers: 'header-value-1a2b3c4d5e6f7a8b',
  env: 'env-value-9f8e7d6c5b4a39281706',
  url: 'url-password-5e6f7a8b9c0d1e2f',
  path: 'path-query-key-3c4d5e6f7a8b9c0d',
  'oauth.clientSecret': 'oauth-client-secret-7a6b5c4d3e2f1a0b',
  'oauth.privateKey': KEY_LINE,
  'oauth.assertion': 'workload-jwt-eyJhbGciOiJFUzI1NiJ9.w.z',
  'oauth.idp.clientSecret': 'idp-client-secret-2b3c4d5e6f7a8b9c',
  'oauth.idp.idToken': 'idp-id-token-eyJhbGciOiJSUzI1NiJ9.x.y',
  parameters: 'template-param-secret-8c9d0e1f2a3b4c5d',
};

/** Entries that, together, carry a secret in every field of SECRET_FIELDS. */
const ENTRIES: Record<string, Record<string, unknown>> = {
  keyed: { url: 'https://mcp.example.com/mcp', apiKey: SECRETS.apiKey, headers: { 'X-Team': SECRETS.headers } },
  userinfo: { url: `https://robot:${SECRETS.url}@mcp.example.com/mcp` },
  detected: { path: `https://mcp.example.com/mcp?api_key=${SECRETS.path}` },
  m2m: { url: 'https://mcp.example.com/mcp', oauth: { grant: 'client_credentials', clientId: 'm2m', clientSecret: SECRETS['oauth.clientSecret'] } },
  signed: { url: 'https://mcp.example.com/mcp', oauth: { grant: 'client_credentials', clientId: 'signer', privateKey: PRIVATE_KEY, signingAlgorithm: 'ES256' } },
  enterprise: {
    url: 'https://mcp.example.com/mcp',
    oauth: { grant: 'jwt-bearer', clientId: 'rs-client', clientSecret: SECRETS['oauth.clientSecret'], idp: { tokenEndpoint: 'https://idp.example.com/token', clientId: 'idp-client', clientSecret: SECRETS['oauth.idp.clientSecret'], idToken: SECRETS['oauth.idp.idToken'] } },
  },
  workload: { url: 'https://mcp.example.com/mcp', oauth: { grant: 'jwt-bearer', clientId: 'job', assertion: SECRETS['oauth.assertion'] } },
  proc: { command: 'node', args: ['server.js'], env: { TOKEN: SECRETS.env } },
  instance: { template: 'tool', parameters: { team: 'blue', token: SECRETS.parameters } },
};

for (const { kind, skip } of await backendsToTest()) {
  describe.skipIf(skip !== undefined)(`secret fields at rest on ${kind}${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
    const database = testDatabaseForEachTest(kind);
    let registry: ServerRegistry;
    const open = (): Promise<ServerRegistry> => ServerRegistry.open({ db: database.db, keyFile: join(database.dir, 'secret.key'), watch: false });

    /** The `servers` table as stored, every column as text. */
    async function rawRows(): Promise<Array<{ name: string; entry: string; secrets: string | null }>> {
      const rows =
        kind === 'sqlite'
          ? ((await import('better-sqlite3')).default(database.file ?? '', { readonly: true }).prepare('select name, entry, secrets from servers').all() as Array<Record<string, unknown>>)
          : await queryPostgres(database.db, 'select name, entry, secrets from servers');
      return rows.map((row) => ({ name: String(row.name), entry: String(row.entry), secrets: row.secrets === null ? null : String(row.secrets) }));
    }

    beforeEach(async () => {
      registry = await open();
      await registry.users.add('root', { isAdmin: true });
      await registry.templates.add('tool', { command: 'node', args: ['tool.js', '--team', '{{team}}'], env: { TOOL_TOKEN: '{{token}}' }, parameters: [{ name: 'team' }, { name: 'token', secret: true }] });
      for (const [name, entry] of Object.entries(ENTRIES)) await registry.servers.add('root', name, entry);
    });
    afterEach(async () => {
      await registry.close();
    });

    test('the entries exercise every field of SECRET_FIELDS', () => {
      expect(Object.keys(SECRETS).sort()).toEqual(SECRET_FIELDS.map((field) => dottedPath(field.path)).sort());
      const text = JSON.stringify(ENTRIES);
      for (const secret of Object.values(SECRETS)) expect(text).toContain(secret);
    });

    test('no secret is in the database row in clear text; each row\'s secrets are one sealed value', async () => {
      const rows = await rawRows();
      expect(rows.map((row) => row.name).sort()).toEqual(Object.keys(ENTRIES).sort());
      const dump = JSON.stringify(rows);
      for (const [field, secret] of Object.entries(SECRETS)) expect(dump.includes(secret), `${field} in clear in the row`).toBe(false);
      for (const row of rows) expect(row.secrets, row.name).toMatch(/^sb1\.[0-9a-f]{16}\./);
      // What is not secret stays readable (and queryable) in the row.
      expect(rows.find((row) => row.name === 'm2m')?.entry).toContain('"clientId":"m2m"');
    });

    test('every listing masks every secret; the connecting client gets them whole', async () => {
      const listed = JSON.stringify(await registry.servers.list('root'));
      for (const [field, secret] of Object.entries(SECRETS)) expect(listed.includes(secret), `${field} shown in clear`).toBe(false);
      const m2m = await registry.servers.get('root', 'm2m');
      expect(m2m.entry.oauth).toEqual({ grant: 'client_credentials', clientId: 'm2m', clientSecret: `••••${SECRETS['oauth.clientSecret']?.slice(-4)}` });
      const enterprise = (await registry.servers.get('root', 'enterprise')).entry.oauth as { idp: Record<string, unknown> };
      expect(enterprise.idp).toMatchObject({ clientId: 'idp-client', tokenEndpoint: 'https://idp.example.com/token', clientSecret: expect.stringMatching(/^••••/), idToken: expect.stringMatching(/^••••/) });

      const specs = (await registry.configForUser('root')).config.servers;
      const oauthOf = (name: string) => {
        const spec = specs.find((item) => item.name === name);
        return spec?.type === 'http' ? spec.oauth : undefined;
      };
      expect(oauthOf('m2m')?.clientSecret).toBe(SECRETS['oauth.clientSecret']);
      expect(oauthOf('signed')?.privateKey).toBe(PRIVATE_KEY);
      expect(oauthOf('workload')?.assertion).toBe(SECRETS['oauth.assertion']);
      expect(oauthOf('enterprise')?.idp).toMatchObject({ clientSecret: SECRETS['oauth.idp.clientSecret'], idToken: SECRETS['oauth.idp.idToken'] });
    });

    test('an edited listing sent back with its masked values keeps the stored secrets; new values replace them', async () => {
      const shown = await registry.servers.get('root', 'enterprise');
      await registry.servers.update('root', 'enterprise', { ...shown.entry, description: 'edited' });
      const kept = (await registry.configForUser('root')).config.servers.find((spec) => spec.name === 'enterprise');
      expect(kept?.type === 'http' ? kept.oauth : undefined).toMatchObject({ clientSecret: SECRETS['oauth.clientSecret'], idp: { clientSecret: SECRETS['oauth.idp.clientSecret'], idToken: SECRETS['oauth.idp.idToken'] } });

      const m2m = (await registry.servers.get('root', 'm2m')).entry as { oauth: Record<string, unknown> };
      await registry.servers.update('root', 'm2m', { ...m2m, oauth: { ...m2m.oauth, clientSecret: 'rotated-client-secret-0a1b2c3d4e5f' } });
      const rotated = (await registry.configForUser('root')).config.servers.find((spec) => spec.name === 'm2m');
      expect(rotated?.type === 'http' ? rotated.oauth?.clientSecret : undefined).toBe('rotated-client-secret-0a1b2c3d4e5f');
      expect(JSON.stringify(await rawRows())).not.toContain('rotated-client-secret-0a1b2c3d4e5f');
    });

    test('a row written before the OAuth secrets were listed (clientSecret in clear) is sealed when the registry opens', async () => {
      const legacySecret = 'legacy-clear-secret-6d5c4b3a2f1e0d9c';
      const legacy = JSON.stringify({ url: 'https://mcp.example.com/mcp', oauth: { grant: 'client_credentials', clientId: 'old', clientSecret: legacySecret } });
      await registry.close();
      // As the old code stored it: the secret in the entry, nothing sealed.
      if (kind === 'sqlite') {
        const raw = (await import('better-sqlite3')).default(database.file ?? '');
        try {
          raw.prepare("update servers set entry = ?, secrets = null where name = 'm2m'").run(legacy);
        } finally {
          raw.close();
        }
      } else {
        await queryPostgres(database.db, "update servers set entry = $1, secrets = null where name = 'm2m'", [legacy]);
      }
      expect(JSON.stringify(await rawRows())).toContain(legacySecret);
      registry = await open();
      expect(JSON.stringify(await rawRows())).not.toContain(legacySecret);
      const spec = (await registry.configForUser('root')).config.servers.find((item) => item.name === 'm2m');
      expect(spec?.type === 'http' ? spec.oauth : undefined).toMatchObject({ clientId: 'old', clientSecret: legacySecret });
      expect((await registry.servers.get('root', 'm2m')).entry.oauth).toMatchObject({ clientSecret: `••••${legacySecret.slice(-4)}` });
    });
  });
}

/**
 * The registry store on both backends: users, servers (owned and shared), templates, tokens, audit,
 * user secrets, encryption at rest, key rotation, migrations on reopen and change events.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ErrorCode, isSwitchboardError } from '../../../src/errors.js';
import { AuditWriter } from '../../../src/registry/audit-writer.js';
import { ServerRegistry } from '../../../src/registry/server-registry.js';
import type { RegistryChange } from '../../../src/registry/registry-types.js';
import { backendsToTest, queryPostgres } from '../../helpers/registry-backends.js';
import { testDatabaseForEachTest } from '../../helpers/test-database-for-each-test.js';
import { codeOf } from '../../helpers/code-of.js';

const API_KEY = 'sk-live-4f1c9e0b7a2d4c8e9f3b6a1d0c2e5f7a';
const HEADER_SECRET = 'hdr-3b9d2f7e1c0a4b6d8e5f';
const ENV_SECRET = 'env-7c1e4a9b2d0f3e6a5b8c';
const PUBLIC_IP = '93.184.215.14';
const resolveHost = async (): Promise<string[]> => [PUBLIC_IP];

for (const { kind, skip } of await backendsToTest()) {
  describe.skipIf(skip !== undefined)(`registry store on ${kind}${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
    const database = testDatabaseForEachTest(kind);
    let registry: ServerRegistry;
    const open = (extra: Partial<Parameters<typeof ServerRegistry.open>[0]> = {}): Promise<ServerRegistry> =>
      ServerRegistry.open({ db: database.db, keyFile: join(database.dir, 'secret.key'), resolveHost, watch: false, ...extra });

    beforeEach(async () => {
      registry = await open();
    });
    afterEach(async () => {
      await registry.close();
    });

    test('users: add, list, get, admin flag, duplicate names refused, remove cascades', async () => {
      const alice = await registry.users.add('alice');
      await registry.users.add('root', { isAdmin: true });
      expect(alice.isAdmin).toBe(false);
      expect((await registry.users.list()).map((user) => [user.name, user.isAdmin])).toEqual([
        ['alice', false],
        ['root', true],
      ]);
      expect(await codeOf(registry.users.add('alice'))).toBe(ErrorCode.AlreadyExists);
      expect(await codeOf(registry.users.add('bad name!'))).toBe(ErrorCode.InvalidArgument);
      await registry.servers.add(alice, 'files', { url: 'https://mcp.example.com/mcp', apiKey: API_KEY });
      await registry.tokens.create(alice);
      await registry.users.remove('alice');
      expect(await codeOf(registry.users.get('alice'))).toBe(ErrorCode.NotFound);
      expect(await registry.servers.listAll()).toEqual([]);
    });

    test('servers: one name per owner, the same name for two owners, shared servers, masked secrets', async () => {
      await registry.users.add('alice');
      await registry.users.add('bob');
      const added = await registry.servers.add('alice', 'gh', {
        url: 'https://mcp.example.com/mcp',
        apiKey: API_KEY,
        headers: { 'X-Team': HEADER_SECRET },
      });
      expect(added).toMatchObject({ name: 'gh', owner: 'alice', shared: false, kind: 'http', enabled: true });
      expect(added.entry).toEqual({ url: 'https://mcp.example.com/mcp', apiKey: `••••${API_KEY.slice(-4)}`, headers: { 'X-Team': `••••${HEADER_SECRET.slice(-4)}` } });
      await registry.servers.add('bob', 'gh', { url: 'https://other.example.com/mcp' });
      expect(await codeOf(registry.servers.add('alice', 'gh', { url: 'https://mcp.example.com/x' }))).toBe(ErrorCode.AlreadyExists);
      await registry.servers.add(null, 'search', { command: 'node', args: ['search.js'], env: { TOKEN: ENV_SECRET } });
      expect(await codeOf(registry.servers.add(null, 'search', { url: 'https://x.example.com' }))).toBe(ErrorCode.AlreadyExists);
      expect(await codeOf(registry.servers.add('alice', 'search', { url: 'https://x.example.com' }))).toBe(ErrorCode.AlreadyExists);

      const listed = await registry.servers.list('alice');
      expect(listed.map((server) => [server.name, server.owner, server.shared])).toEqual([
        ['gh', 'alice', false],
        ['search', null, true],
      ]);
      expect(JSON.stringify(listed)).not.toContain(API_KEY);
      expect(JSON.stringify(listed)).not.toContain(ENV_SECRET);
      expect(JSON.stringify(await registry.servers.listAll())).not.toMatch(new RegExp(`${API_KEY}|${HEADER_SECRET}|${ENV_SECRET}`));

      const disabled = await registry.servers.setEnabled('alice', 'gh', false);
      expect(disabled.enabled).toBe(false);
      expect((await registry.configForUser('alice')).config.servers.map((spec) => spec.name)).toEqual(['search']);
      await registry.servers.setEnabled('alice', 'gh', true);

      const config = await registry.configForUser('alice');
      const gh = config.config.servers.find((spec) => spec.name === 'gh');
      expect(gh?.type === 'http' ? gh.headers : undefined).toEqual({ 'X-Team': HEADER_SECRET, Authorization: `Bearer ${API_KEY}` });
      expect([...config.tenantServers]).toEqual(['gh']);

      await registry.servers.remove('alice', 'gh');
      expect(await codeOf(registry.servers.get('alice', 'gh'))).toBe(ErrorCode.ServerNotFound);
      expect((await registry.servers.get('bob', 'gh')).owner).toBe('bob');
    });

    test('update keeps secrets sent back masked, replaces the ones sent in clear', async () => {
      await registry.users.add('alice');
      const added = await registry.servers.add('alice', 'gh', { url: 'https://mcp.example.com/mcp', apiKey: API_KEY, headers: { 'X-Team': HEADER_SECRET } });
      await registry.servers.update('alice', 'gh', { ...added.entry, url: 'https://mcp.example.com/v2' });
      let spec = (await registry.configForUser('alice')).config.servers[0];
      expect(spec?.type === 'http' ? [spec.url, spec.headers] : undefined).toEqual(['https://mcp.example.com/v2', { 'X-Team': HEADER_SECRET, Authorization: `Bearer ${API_KEY}` }]);
      await registry.servers.update('alice', 'gh', { ...added.entry, apiKey: 'sk-new-value-0000000000000000' });
      spec = (await registry.configForUser('alice')).config.servers[0];
      expect(spec?.type === 'http' ? spec.headers.Authorization : undefined).toBe('Bearer sk-new-value-0000000000000000');
    });

    test('invalid entries are refused with the config loader\'s message', async () => {
      await registry.users.add('root', { isAdmin: true });
      const error = await registry.servers.add('root', 'x', { url: 'not a url' }).catch((caught: unknown) => caught);
      expect(isSwitchboardError(error) && error.code).toBe(ErrorCode.ConfigInvalid);
      expect(String((error as Error).message)).toContain('servers.x.url: is not a valid URL');
      expect(await codeOf(registry.servers.add('root', 'y', {}))).toBe(ErrorCode.ConfigInvalid);
      const unknown = await registry.servers.add('root', 'z', { url: 'https://mcp.example.com/mcp', endpoint: 'x' }).catch((caught: unknown) => caught);
      expect(String((unknown as Error).message)).toContain('servers.z.endpoint: unknown key — use `url`');
    });

    test('secrets are encrypted at rest: not in the database in clear text', async () => {
      await registry.users.add('alice');
      await registry.servers.add('alice', 'gh', { url: 'https://mcp.example.com/mcp', apiKey: API_KEY, headers: { 'X-Team': HEADER_SECRET } });
      await registry.servers.add(null, 'tool', { command: 'node', args: ['x.js'], env: { TOKEN: ENV_SECRET } });
      await registry.servers.add('alice', 'keyed', { url: 'https://mcp.example.com/mcp?api_key=url-key-5e6f7a8b9c0d1e2f&region=eu' });
      expect((await registry.servers.get('alice', 'keyed')).entry.url).toBe('https://mcp.example.com/mcp?api_key=xxxx&region=eu');
      const keyed = (await registry.configForUser('alice')).config.servers.find((spec) => spec.name === 'keyed');
      expect(keyed?.type === 'http' ? keyed.url : undefined).toBe('https://mcp.example.com/mcp?api_key=url-key-5e6f7a8b9c0d1e2f&region=eu');
      await registry.userSecrets.set('alice', 'oauth', 'gh', 'oauth-refresh-9d8c7b6a5f4e3d2c1b0a');
      expect(await registry.userSecrets.get('alice', 'oauth', 'gh')).toBe('oauth-refresh-9d8c7b6a5f4e3d2c1b0a');
      const secrets = [API_KEY, HEADER_SECRET, ENV_SECRET, 'oauth-refresh-9d8c7b6a5f4e3d2c1b0a', 'url-key-5e6f7a8b9c0d1e2f'];
      if (kind === 'sqlite') {
        await registry.close();
        // The database file and its WAL and shared-memory files, byte for byte.
        const files = readdirSync(database.dir).filter((name) => name.startsWith('switchboard.db'));
        expect(files).toContain('switchboard.db');
        for (const name of files) {
          const bytes = readFileSync(join(database.dir, name));
          for (const secret of secrets) expect(bytes.includes(Buffer.from(secret)), `${secret} in ${name}`).toBe(false);
        }
        expect(readFileSync(join(database.dir, 'switchboard.db')).includes(Buffer.from('https://mcp.example.com/mcp'))).toBe(true);
        expect(statSync(join(database.dir, 'switchboard.db')).mode & 0o777).toBe(0o600);
        registry = await open();
      } else {
        // Every row of every table, as text.
        let dump = '';
        for (const table of ['users', 'servers', 'server_templates', 'api_tokens', 'audit_log', 'user_secrets', 'settings']) {
          dump += JSON.stringify(await queryPostgres(database.db, `select * from ${table}`));
        }
        expect(dump).toContain('sb1.');
        for (const secret of secrets) expect(dump).not.toContain(secret);
      }
      expect(statSync(join(database.dir, 'secret.key')).mode & 0o777).toBe(0o600);
    });

    test('a ciphertext moved to another row does not decrypt', async () => {
      await registry.users.add('alice');
      await registry.users.add('bob');
      await registry.servers.add('alice', 'gh', { url: 'https://mcp.example.com/mcp', apiKey: API_KEY });
      await registry.servers.add('bob', 'gh', { url: 'https://mcp.example.com/mcp', apiKey: 'sk-bob-0000000000000000000000' });
      const move = "update servers set secrets = (select secrets from servers s join users u on u.id = s.owner_id where u.name = 'alice') where owner_id = (select id from users where name = 'bob')";
      if (kind === 'sqlite') {
        const { default: Database } = await import('better-sqlite3');
        const raw = new Database(database.file ?? '');
        raw.exec(move);
        raw.close();
      } else {
        await queryPostgres(database.db, move);
      }
      const error = await registry.configForUser('bob').then((config) => config.warnings.join('\n'));
      expect(error).toContain('failed authentication');
      expect((await registry.configForUser('bob')).config.servers).toEqual([]);
    });

    test('the wrong key is a clear error; a missing key is not silently replaced', async () => {
      await registry.users.add('alice');
      await registry.servers.add('alice', 'gh', { url: 'https://mcp.example.com/mcp', apiKey: API_KEY });
      await registry.close();
      const wrongKey = Buffer.alloc(32, 7).toString('base64');
      const wrong = await open({ secretKey: wrongKey }).catch((error: unknown) => error);
      expect(isSwitchboardError(wrong) && wrong.code).toBe(ErrorCode.SecretKeyInvalid);
      expect(String((wrong as Error).message)).toMatch(/encrypted with key [0-9a-f]{16}, but the key in SWITCHBOARD_SECRET_KEY is [0-9a-f]{16}/);
      const missing = await open({ keyFile: join(database.dir, 'nowhere.key') }).catch((error: unknown) => error);
      expect(isSwitchboardError(missing) && missing.code).toBe(ErrorCode.SecretKeyInvalid);
      registry = await open();
      expect((await registry.configForUser('alice')).config.servers).toHaveLength(1);
    });

    test('key rotation re-encrypts everything; the old key no longer opens the database', async () => {
      await registry.users.add('alice');
      await registry.servers.add('alice', 'gh', { url: 'https://mcp.example.com/mcp', apiKey: API_KEY });
      await registry.templates.add('files', { command: 'node', args: ['fs.js', '{{dir}}'], env: { ADMIN_TOKEN: ENV_SECRET }, parameters: [{ name: 'dir', type: 'string' }] });
      await registry.userSecrets.set('alice', 'oauth', 'gh', 'refresh-token-value-12345');
      const oldKey = readFileSync(join(database.dir, 'secret.key'), 'utf8');
      const rotation = await registry.rotateSecretKey();
      expect(rotation.reencrypted).toBe(3);
      expect(rotation.keyId).not.toBe(rotation.previousKeyId);
      expect(registry.secretKeyId).toBe(rotation.keyId);
      expect(readFileSync(join(database.dir, 'secret.key'), 'utf8')).not.toBe(oldKey);
      expect(statSync(join(database.dir, 'secret.key')).mode & 0o777).toBe(0o600);
      await registry.close();
      expect(await codeOf(open({ secretKey: oldKey.trim() }))).toBe(ErrorCode.SecretKeyInvalid);
      registry = await open();
      const spec = (await registry.configForUser('alice')).config.servers[0];
      expect(spec?.type === 'http' ? spec.headers.Authorization : undefined).toBe(`Bearer ${API_KEY}`);
      expect(await registry.userSecrets.get('alice', 'oauth', 'gh')).toBe('refresh-token-value-12345');
      expect((await registry.templates.list())[0]?.env).toEqual({ ADMIN_TOKEN: `••••${ENV_SECRET.slice(-4)}` });
    });

    test('an environment key must be rotated to a given key', async () => {
      await registry.close();
      const first = Buffer.alloc(32, 1).toString('base64');
      const second = Buffer.alloc(32, 2).toString('hex');
      await database.reset();
      registry = await open({ secretKey: first });
      await registry.users.add('alice');
      await registry.servers.add('alice', 'gh', { url: 'https://mcp.example.com/mcp', apiKey: API_KEY });
      expect(await codeOf(registry.rotateSecretKey())).toBe(ErrorCode.InvalidArgument);
      const rotation = await registry.rotateSecretKey({ newKey: second });
      expect(rotation.keySource).toBe('SWITCHBOARD_SECRET_KEY');
      await registry.close();
      registry = await open({ secretKey: second });
      expect((await registry.configForUser('alice')).config.servers).toHaveLength(1);
    });

    test('tokens: shown once, verified by hash, expire, revoked, never listed', async () => {
      const alice = await registry.users.add('alice');
      await registry.users.add('bob');
      const created = await registry.tokens.create(alice, { name: 'laptop' });
      expect(created.token).toMatch(/^sb_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
      expect((await registry.verifyToken(created.token))?.name).toBe('alice');
      expect(await registry.verifyToken(`${created.token.slice(0, -2)}xx`)).toBeUndefined();
      expect(await registry.verifyToken('sb_000000000000_' + 'a'.repeat(43))).toBeUndefined();
      expect(await registry.verifyToken('')).toBeUndefined();
      const listed = await registry.tokens.list('alice');
      expect(listed).toHaveLength(1);
      expect(listed[0]?.lastUsedAt).toBeDefined();
      // The secret is everything after `sb_<prefix>_`: base64url, so it may hold (or start with) '_' itself.
      const secret = created.token.slice(`sb_${listed[0]?.prefix}_`.length);
      expect(secret).toHaveLength(43);
      expect(JSON.stringify(listed)).not.toContain(secret);
      const stored = kind === 'postgres' ? JSON.stringify(await queryPostgres(database.db, 'select * from api_tokens')) : '';
      if (kind === 'postgres') expect(stored).not.toContain(created.token);
      expect(await codeOf(registry.tokens.revoke('bob', created.info.prefix))).toBe(ErrorCode.NotFound);
      await registry.tokens.revoke('alice', created.info.prefix);
      expect(await registry.verifyToken(created.token)).toBeUndefined();
      const short = await registry.tokens.create(alice, { expiresInMs: 1 });
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await registry.verifyToken(short.token)).toBeUndefined();
    });

    test('audit log: newest first, per user, arguments only when given', async () => {
      const alice = await registry.users.add('alice');
      await registry.audit.record({ userId: alice.id, userName: 'alice', server: 'gh', tool: 'search', ok: true, durationMs: 12.6 });
      await registry.audit.record({ userId: alice.id, userName: 'alice', server: 'gh', tool: 'fail', ok: false, errorCode: 'REQUEST_TIMEOUT', durationMs: 60_000, arguments: { q: 1 } });
      await registry.audit.record({ userName: 'gone', tool: 'x', ok: true, durationMs: 1 });
      const entries = await registry.audit.list({ user: 'alice' });
      expect(entries.map((entry) => [entry.tool, entry.ok, entry.errorCode, entry.durationMs, entry.arguments])).toEqual([
        ['fail', false, 'REQUEST_TIMEOUT', 60_000, { q: 1 }],
        ['search', true, undefined, 13, undefined],
      ]);
      expect(await registry.audit.list({ limit: 1 })).toHaveLength(1);
      expect(await codeOf(registry.audit.list({ limit: 0 }))).toBe(ErrorCode.InvalidArgument);
    });

    test('an audit batch stores every column, and an id sent again is stored once', async () => {
      const alice = await registry.users.add('alice');
      const full = { id: '0190a000-0000-7000-8000-000000000001', userId: alice.id, userName: 'alice', server: 'gh', tool: 'search', ok: false, errorCode: 'RATE_LIMITED', durationMs: 7.4, arguments: { q: 'x', n: [1, 2] }, createdAt: '2026-12-01T10:00:00.000Z', endpoint: 'support', decision: 'rate-limited', rule: 'limit:gh' };
      const bare = { id: '0190a000-0000-7000-8000-000000000002', ok: true, durationMs: 0 };
      await registry.audit.recordMany([full, bare]);
      // A batch whose answer was lost is sent again: nothing doubles, and the rest of the batch is kept.
      await registry.audit.recordMany([full, { ...bare, id: '0190a000-0000-7000-8000-000000000003', tool: 'third' }]);
      const entries = await registry.audit.list();
      expect(entries.map((entry) => entry.id)).toEqual(['0190a000-0000-7000-8000-000000000003', bare.id, full.id]);
      expect(entries[2]).toEqual({ ...full, durationMs: 7 });
      expect(entries[1]).toEqual({ id: bare.id, ok: true, durationMs: 0, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    });

    test('the audit writer batches entries and keeps their order', async () => {
      const alice = await registry.users.add('alice');
      const writer = new AuditWriter(registry.audit, { batchSize: 3, flushIntervalMs: 60_000 });
      for (let index = 0; index < 7; index++) writer.write({ userId: alice.id, userName: 'alice', tool: `t${index}`, ok: true, durationMs: index });
      await writer.flush();
      expect((await registry.audit.list({ user: alice })).map((entry) => entry.tool)).toEqual(['t6', 't5', 't4', 't3', 't2', 't1', 't0']);
      writer.write({ userId: alice.id, tool: 'last', ok: false, errorCode: 'TOOL_ERROR', durationMs: 1 });
      await writer.close();
      expect((await registry.audit.list({ user: alice, limit: 1 }))[0]).toMatchObject({ tool: 'last', ok: false, errorCode: 'TOOL_ERROR' });
      writer.write({ userId: alice.id, tool: 'dropped', ok: true, durationMs: 1 });
      expect(await registry.audit.list({ user: alice })).toHaveLength(8);
    });

    test('templates: validated, masked, removal refused while in use', async () => {
      expect(await codeOf(registry.templates.add('bad', { command: 'node', args: ['{{missing}}'] }))).toBe(ErrorCode.InvalidArgument);
      await registry.templates.add('files', { command: 'node', args: ['fs.js', '{{dir}}'], env: { KEY: '{{key}}', FIXED: ENV_SECRET }, parameters: [{ name: 'dir' }, { name: 'key', secret: true }] });
      const listed = await registry.templates.get('files');
      expect(listed.env).toEqual({ KEY: '{{key}}', FIXED: `••••${ENV_SECRET.slice(-4)}` });
      await registry.users.add('alice');
      await registry.servers.add('alice', 'mine', { template: 'files', parameters: { dir: 'docs', key: API_KEY } });
      const server = await registry.servers.get('alice', 'mine');
      expect(server).toMatchObject({ kind: 'template', template: 'files', entry: { template: 'files', parameters: { dir: 'docs', key: `••••${API_KEY.slice(-4)}` } } });
      expect(await codeOf(registry.templates.remove('files'))).toBe(ErrorCode.InvalidArgument);
      await registry.servers.remove('alice', 'mine');
      await registry.templates.remove('files');
      expect(await registry.templates.list()).toEqual([]);
    });

    test('migrations run once: reopening keeps the data', async () => {
      await registry.users.add('alice');
      await registry.close();
      registry = await open();
      await registry.close();
      registry = await open();
      expect((await registry.users.list()).map((user) => user.name)).toEqual(['alice']);
    });

    test('the audit log keeps only the indexes its query reads: a user’s newest entries straight from (user_id, id)', async () => {
      const alice = await registry.users.add('alice');
      const writer = new AuditWriter(registry.audit);
      for (let index = 0; index < 5; index++) writer.write({ userId: alice.id, userName: 'alice', server: 'echo', tool: `t${index}`, ok: true, durationMs: 1 });
      writer.write({ userId: 'someone-else', userName: 'bob', server: 'echo', tool: 'other', ok: true, durationMs: 1 });
      await writer.close();
      expect((await registry.audit.list({ user: { id: alice.id }, limit: 3 })).map((entry) => entry.tool)).toEqual(['t4', 't3', 't2']);
      // Each index is one more B-tree written per tool call (issue 17): none that no query reads.
      const query = 'select * from audit_log where user_id = $1 order by id desc limit 3';
      if (kind === 'sqlite') {
        const { default: Database } = await import('better-sqlite3');
        const raw = new Database(database.file ?? '', { readonly: true });
        const indexes = raw.prepare("select name from sqlite_master where type = 'index' and tbl_name = 'audit_log' order by name").pluck().all();
        const plan = raw.prepare(`explain query plan ${query.replace('$1', '?')}`).all(alice.id) as Array<{ detail: string }>;
        raw.close();
        expect(indexes).toEqual(['audit_log_user_id', 'sqlite_autoindex_audit_log_1']);
        expect(plan.map((step) => step.detail)).toEqual([expect.stringContaining('USING INDEX audit_log_user_id (user_id=?)')]);
      } else {
        const indexes = await queryPostgres(database.db, "select indexname from pg_indexes where tablename = 'audit_log' order by indexname");
        expect(indexes.map((row) => row.indexname)).toEqual(['audit_log_pkey', 'audit_log_user_id']);
      }
    });

    test('policy: global settings and per-user exceptions are validated and stored', async () => {
      expect(await registry.policy()).toMatchObject({ allowStdio: false, maxServers: 25, maxConcurrentCalls: 8 });
      await registry.setPolicy({ maxServers: 3, allowHttpHosts: ['intranet.example.com'] });
      expect(await registry.policy()).toMatchObject({ maxServers: 3, allowHttpHosts: ['intranet.example.com'] });
      expect(await codeOf(registry.setPolicy({ allowAddresses: ['everything'] }))).toBe(ErrorCode.InvalidArgument);
      await registry.users.add('alice', { policy: { allowAddresses: ['10.1.0.0/16'], maxServers: 5 } });
      expect(await registry.policyFor('alice')).toMatchObject({ maxServers: 5, allowAddresses: ['10.1.0.0/16'], allowHttpHosts: ['intranet.example.com'] });
      await registry.users.add('root', { isAdmin: true });
      expect(await registry.policyFor('root')).toBeUndefined();
    });

    test('change events: local after commit, and from another process', async () => {
      const seen: RegistryChange[] = [];
      registry.on('change', (change) => seen.push(change));
      const alice = await registry.users.add('alice');
      await registry.servers.add(alice, 'gh', { url: 'https://mcp.example.com/mcp' });
      await registry.servers.add(null, 'shared', { url: 'https://shared.example.com/mcp' });
      expect(seen.map((change) => [change.kind, change.action, change.userId, change.name, change.remote])).toEqual([
        ['user', 'added', alice.id, 'alice', false],
        ['server', 'added', alice.id, 'gh', false],
        ['server', 'added', null, 'shared', false],
      ]);

      const watcher = await open({ watch: true, watchIntervalMs: 20 });
      try {
        const remote = new Promise<RegistryChange>((resolve) => watcher.on('change', (change) => change.remote && resolve(change)));
        await registry.servers.setEnabled(alice, 'gh', false);
        const change = await Promise.race([remote, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no remote change within 5 s')), 5_000))]);
        if (kind === 'postgres') expect(change).toEqual({ kind: 'server', action: 'updated', userId: alice.id, name: 'gh', remote: true });
        else expect(change).toEqual({ kind: 'unknown', action: 'unknown', userId: undefined, remote: true });
      } finally {
        await watcher.close();
      }
    });
  });
}

/**
 * The registry commands of the built CLI on both backends, as an operator types them: users,
 * servers (with secrets masked in every output and absent from the database file), refusals that
 * exit 1 naming their rule, isolation between users, tokens printed once, key rotation, usage errors.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ServerRegistry } from '../../src/registry/server-registry.js';
import { ROOT } from '../helpers/fixtures.js';
import { backendsToTest, createTestDatabase, type TestDatabase } from '../helpers/registry-backends.js';

const BIN = join(ROOT, 'bin/switchboard.js');
const API_KEY = '00123456789012345678901e5';
const HEADER_VALUE = 'team-header-7f3e2d1c0b9a8f7e';
const ENV_VALUE = 'env-value-4a5b6c7d8e9f0a1b2c';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

for (const { kind, skip } of await backendsToTest()) {
  describe.skipIf(skip !== undefined)(`registry CLI on ${kind}${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
    let database: TestDatabase;
    const run = (...args: string[]): Promise<Run> =>
      new Promise((resolve) => {
        execFile(
          process.execPath,
          [BIN, ...args],
          { cwd: database.dir, env: { PATH: process.env.PATH ?? '', HOME: database.dir, SWITCHBOARD_DB: database.db, NO_COLOR: '1' }, timeout: 20_000 },
          (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
        );
      });
    // The CLI's key file: beside the SQLite file, or in ./.switchboard for PostgreSQL.
    const keyFile = (): string => (kind === 'sqlite' ? join(database.dir, 'secret.key') : join(database.dir, '.switchboard', 'secret.key'));
    const openLibrary = (): Promise<ServerRegistry> => ServerRegistry.open({ db: database.db, keyFile: keyFile(), watch: false });
    const noSecrets = (result: Run): void => {
      for (const secret of [API_KEY, HEADER_VALUE, ENV_VALUE]) {
        expect(result.stdout).not.toContain(secret);
        expect(result.stderr).not.toContain(secret);
      }
    };

    beforeAll(async () => {
      database = await createTestDatabase(kind);
    });
    afterAll(async () => database?.drop());
    beforeEach(async () => {
      await database.reset();
      // Set up in-process (each CLI run is a Node start-up); the users commands are tested below.
      const registry = await openLibrary();
      try {
        await registry.users.add('alice');
        await registry.users.add('bob');
        await registry.users.add('root', { isAdmin: true });
      } finally {
        await registry.close();
      }
    });

    test('users add, list, remove; a taken name exits 1', async () => {
      expect(await run('users', 'add', 'carol')).toMatchObject({ code: 0, stdout: 'added user carol\n' });
      expect(await run('users', 'add', 'dave', '--admin')).toMatchObject({ code: 0, stdout: 'added user dave (admin)\n' });
      expect(await run('users', 'remove', 'carol')).toMatchObject({ code: 0 });
      const listed = await run('users', 'list', '--json');
      expect(JSON.parse(listed.stdout).users.map((user: { name: string; isAdmin: boolean }) => [user.name, user.isAdmin])).toEqual([
        ['alice', false],
        ['bob', false],
        ['dave', true],
        ['root', true],
      ]);
      const again = await run('users', 'add', 'alice');
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('ALREADY_EXISTS');
    });

    test('servers add/list: secrets masked everywhere, kept exactly, never in the database file', async () => {
      const added = await run('servers', 'add', 'gh', '--user', 'alice', '--url', 'https://93.184.215.14/mcp', '--api-key', API_KEY, '--header', `X-Team: ${HEADER_VALUE}`);
      expect(added).toMatchObject({ code: 0, stdout: 'added http server gh to user alice\n' });
      const root = await run('servers', 'add', 'proc', '--user', 'root', '--command', 'node', '--arg=--no-warnings', '--env', `TOKEN=${ENV_VALUE}`, '--', 'server.js', '-v');
      expect(root.code).toBe(0);
      const human = await run('servers', 'list', '--user', 'alice');
      expect(human.stdout).toContain('gh');
      expect(human.stdout).toContain(`apiKey ••••${API_KEY.slice(-4)}`);
      noSecrets(human);
      const json = await run('servers', 'list', '--all', '--json');
      const servers = JSON.parse(json.stdout).servers as Array<{ name: string; entry: Record<string, unknown> }>;
      expect(servers.map((server) => server.name)).toEqual(['gh', 'proc']);
      expect(servers[1]?.entry).toMatchObject({ command: 'node', args: ['--no-warnings', 'server.js', '-v'], env: { TOKEN: `••••${ENV_VALUE.slice(-4)}` } });
      noSecrets(json);
      noSecrets(added);
      noSecrets(root);
      // The key is stored exactly as typed (no number coercion of "00123…e5").
      const registry = await openLibrary();
      try {
        const spec = (await registry.configForUser('alice')).config.servers[0];
        expect(spec?.type === 'http' ? spec.headers : undefined).toEqual({ 'X-Team': HEADER_VALUE, Authorization: `Bearer ${API_KEY}` });
      } finally {
        await registry.close();
      }
      if (kind === 'sqlite') {
        for (const name of readdirSync(database.dir)) {
          if (!name.startsWith('switchboard.db')) continue;
          const bytes = readFileSync(join(database.dir, name));
          for (const secret of [API_KEY, HEADER_VALUE, ENV_VALUE]) expect(bytes.includes(Buffer.from(secret)), `${secret} in ${name}`).toBe(false);
        }
      }
    });

    test('servers list --json masks OAuth client secrets and keys (issue 14, finding 6)', async () => {
      const clientSecret = 'oauth-client-secret-9a8b7c6d5e4f3a2b';
      const registry = await openLibrary();
      try {
        await registry.servers.add('root', 'm2m', { url: 'https://93.184.215.14/mcp', oauth: { grant: 'client_credentials', clientId: 'm2m', clientSecret } });
      } finally {
        await registry.close();
      }
      const listed = await run('servers', 'list', '--user', 'root', '--json');
      expect(listed.code).toBe(0);
      expect(listed.stdout).not.toContain(clientSecret);
      expect(JSON.parse(listed.stdout).servers[0].entry.oauth).toEqual({ grant: 'client_credentials', clientId: 'm2m', clientSecret: `••••${clientSecret.slice(-4)}` });
      expect((await run('servers', 'list', '--user', 'root')).stdout).not.toContain(clientSecret);
    });

    test.each([
      ['a stdio command', ['--command', 'bash', '--arg=-c', '--arg', 'id'], 'stdio'],
      ['an npm package', ['--path', '@modelcontextprotocol/server-everything'], 'stdio'],
      ['file:', ['--url', 'file:///etc/passwd'], 'url-scheme'],
      ['http://127.0.0.1', ['--url', 'http://127.0.0.1/mcp'], 'forbidden-address'],
      ['http://169.254.169.254', ['--url', 'http://169.254.169.254/latest/meta-data/'], 'forbidden-address'],
      ['http://[::ffff:10.0.0.1]', ['--url', 'http://[::ffff:10.0.0.1]/mcp'], 'forbidden-address'],
      ['a name resolving to loopback', ['--url', 'https://localhost/mcp'], 'forbidden-address'],
      ['plain http', ['--url', 'http://93.184.215.14/mcp'], 'https-required'],
    ])('a tenant registering %s is refused: exit 1, the rule named', async (_, flags, rule) => {
      const result = await run('servers', 'add', 'x', '--user', 'alice', ...flags);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('error POLICY_VIOLATION: server "x" for user "alice" was refused by the tenant policy');
      expect(result.stderr).toContain(`[${rule}]`);
      const registry = await openLibrary();
      try {
        expect(await registry.servers.listAll()).toEqual([]);
      } finally {
        await registry.close();
      }
    });

    test('an admin loosens the policy for one user', async () => {
      expect((await run('servers', 'add', 'local', '--user', 'alice', '--url', 'http://127.0.0.1:9/mcp')).code).toBe(1);
      const set = await run('policy', 'set', '--user', 'alice', '--allow-http-host', '127.0.0.1', '--allow-address', 'loopback');
      expect(set.code).toBe(0);
      expect(set.stdout).toContain('non-public addresses allowed: loopback');
      expect((await run('servers', 'add', 'local', '--user', 'alice', '--url', 'http://127.0.0.1:9/mcp')).code).toBe(0);
      expect((await run('servers', 'add', 'local', '--user', 'bob', '--url', 'http://127.0.0.1:9/mcp')).code).toBe(1);
      const shown = JSON.parse((await run('policy', 'show', '--user', 'alice', '--json')).stdout);
      expect(shown.exceptions).toEqual({ allowHttpHosts: ['127.0.0.1'], allowAddresses: ['loopback'] });
    });

    test('user A cannot see, change or delete user B\'s servers through the CLI', async () => {
      expect((await run('servers', 'add', 'bobs', '--user', 'bob', '--url', 'https://93.184.215.14/bob', '--api-key', API_KEY)).code).toBe(0);
      const aliceList = await run('servers', 'list', '--user', 'alice', '--json');
      expect(JSON.parse(aliceList.stdout).servers).toEqual([]);
      for (const action of ['remove', 'disable', 'enable']) {
        const result = await run('servers', action, 'bobs', '--user', 'alice');
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('error SERVER_NOT_FOUND: user "alice" has no server named "bobs"');
      }
      const bobList = JSON.parse((await run('servers', 'list', '--user', 'bob', '--json')).stdout).servers;
      expect(bobList).toMatchObject([{ name: 'bobs', owner: 'bob', enabled: true }]);
      expect((await run('servers', 'disable', 'bobs', '--user', 'bob')).stdout).toBe('disabled server bobs of user bob\n');
      expect((await run('servers', 'remove', 'bobs', '--user', 'bob')).code).toBe(0);
      expect(JSON.parse((await run('servers', 'list', '--user', 'bob', '--json')).stdout).servers).toEqual([]);
    });

    test('token create prints the token once; it authenticates alice; list never shows it', async () => {
      const created = await run('token', 'create', '--user', 'alice', '--name', 'laptop');
      expect(created.code).toBe(0);
      const token = created.stdout.trim();
      expect(token).toMatch(/^sb_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
      expect(created.stderr).toContain('this is the only time it is shown');
      const registry = await openLibrary();
      try {
        expect((await registry.verifyToken(token))?.name).toBe('alice');
      } finally {
        await registry.close();
      }
      const listed = await run('token', 'list', '--user', 'alice');
      expect(listed.stdout).toContain(token.slice(0, 15));
      expect(listed.stdout).not.toContain(token.slice(16));
      expect((await run('token', 'revoke', token.slice(0, 15), '--user', 'bob')).code).toBe(1);
      expect((await run('token', 'revoke', token.slice(0, 15), '--user', 'alice')).code).toBe(0);
    });

    test('keys rotate re-encrypts the stored secrets', async () => {
      await run('servers', 'add', 'gh', '--user', 'alice', '--url', 'https://93.184.215.14/mcp', '--api-key', API_KEY);
      const keyBefore = readFileSync(keyFile(), 'utf8');
      const rotated = await run('keys', 'rotate', '--json');
      expect(rotated.code).toBe(0);
      expect(JSON.parse(rotated.stdout)).toMatchObject({ reencrypted: 1 });
      expect(rotated.stdout).not.toContain(keyBefore.trim());
      expect(readFileSync(keyFile(), 'utf8')).not.toBe(keyBefore);
      expect((await run('servers', 'list', '--user', 'alice')).stdout).toContain(`••••${API_KEY.slice(-4)}`);
    });

    test('usage mistakes exit 2 and say what to write', async () => {
      const noOwner = await run('servers', 'add', 'x', '--url', 'https://93.184.215.14/mcp');
      expect(noOwner.code).toBe(2);
      expect(noOwner.stderr).toContain('say whose server it is: --user U, or --shared');
      const twoSources = await run('servers', 'add', 'x', '--user', 'alice', '--url', 'https://a.example', '--command', 'node');
      expect(twoSources.code).toBe(2);
      expect(twoSources.stderr).toContain('give exactly one of --url, --path, --command or --template (got --url and --command)');
      const dash = await run('servers', 'add', 'x', '--user', 'root', '--command', 'npx', '--arg', '-y');
      expect(dash.code).toBe(2);
      expect(dash.stderr).toContain("use '--arg=-XYZ'");
      const badHeader = await run('servers', 'add', 'x', '--user', 'alice', '--url', 'https://93.184.215.14/', '--header', HEADER_VALUE);
      expect(badHeader.code).toBe(2);
      noSecrets(badHeader);
      const unknown = await run('servers', 'frobnicate');
      expect(unknown.code).toBe(2);
    });

    test('the server limit holds when several CLI processes register at once', async () => {
      const registry = await openLibrary();
      try {
        await registry.setPolicy({ maxServers: 2 });
      } finally {
        await registry.close();
      }
      const results = await Promise.all(Array.from({ length: 5 }, (_, index) => run('servers', 'add', `s${index}`, '--user', 'alice', '--url', `https://93.184.215.14/${index}`)));
      expect(results.filter((result) => result.code === 0)).toHaveLength(2);
      for (const refused of results.filter((result) => result.code !== 0)) {
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain('[server-limit] user "alice" has 2 of 2 servers');
      }
    });

    test('--db names the database instead of SWITCHBOARD_DB', async () => {
      const other = join(database.dir, 'other.db');
      expect((await run('users', 'add', 'carol', '--db', other)).code).toBe(0);
      expect(JSON.parse((await run('users', 'list', '--json', '--db', other)).stdout).users.map((user: { name: string }) => user.name)).toEqual(['carol']);
      expect(JSON.parse((await run('users', 'list', '--json')).stdout).users.map((user: { name: string }) => user.name)).not.toContain('carol');
    });
  });
}

/**
 * The tenant policy on both backends: what a tenant may not register (processes, host environment,
 * non-https URLs, internal addresses by literal or by DNS), what admins may loosen, and that admins
 * are not bound by it. Nothing here connects anywhere: refusals happen before any connection.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ErrorCode, isSwitchboardError, type SwitchboardError } from '../../../src/errors.js';
import { ServerRegistry } from '../../../src/registry/server-registry.js';
import { systemResolver } from '../../../src/registry/resolve-host.js';
import { startDnsServer, type TestDnsServer } from '../../helpers/dns-server.js';
import { KITCHEN_SINK } from '../../helpers/fixtures.js';
import { backendsToTest, createTestDatabase, type TestDatabase } from '../../helpers/registry-backends.js';

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startDnsServer({
    'mcp.example.test': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    'internal.example.test': ['10.1.2.3'],
    'metadata.example.test': ['169.254.169.254'],
    'mixed.example.test': ['93.184.215.14', '192.168.1.20'],
    'ula.example.test': ['93.184.215.14', 'fd12:3456:789a::1'],
    'mapped.example.test': ['::ffff:127.0.0.1'],
  });
});
afterAll(async () => dns.close());

/** The refusal, or a failure when the registration was accepted. */
async function refusal(promise: Promise<unknown>): Promise<SwitchboardError> {
  try {
    await promise;
  } catch (error) {
    if (isSwitchboardError(error)) return error;
    throw error;
  }
  throw new Error('the registration was accepted; it should have been refused');
}

function rulesOf(error: SwitchboardError): unknown {
  return error.details.rules;
}

for (const { kind, skip } of await backendsToTest()) {
  describe.skipIf(skip !== undefined)(`tenant policy on ${kind}${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
    let database: TestDatabase;
    let registry: ServerRegistry;

    beforeAll(async () => {
      database = await createTestDatabase(kind);
    });
    afterAll(async () => database?.drop());
    beforeEach(async () => {
      await database.reset();
      registry = await ServerRegistry.open({ db: database.db, keyFile: join(database.dir, 'secret.key'), resolveHost: dns.resolver, watch: false });
      await registry.users.add('alice');
      await registry.users.add('bob');
      await registry.users.add('root', { isAdmin: true });
    });
    afterEach(async () => {
      await registry.close();
    });

    test('a public https server is accepted', async () => {
      const server = await registry.servers.add('alice', 'ok', { url: 'https://mcp.example.test/mcp', apiKey: 'k-123' });
      expect(server.kind).toBe('http');
    });

    test.each([
      ['file: URL', { url: 'file:///etc/passwd' }, ['url-scheme']],
      ['file: path', { path: 'file:///etc/passwd' }, ['url-scheme']],
      ['gopher: URL', { url: 'gopher://internal.example.test/' }, ['url-scheme']],
      ['http://127.0.0.1', { url: 'http://127.0.0.1/mcp' }, ['https-required', 'forbidden-address']],
      ['https://127.0.0.1', { url: 'https://127.0.0.1:8443/mcp' }, ['forbidden-address']],
      ['http://169.254.169.254', { url: 'http://169.254.169.254/latest/meta-data/' }, ['https-required', 'forbidden-address']],
      ['http://[::ffff:10.0.0.1]', { url: 'http://[::ffff:10.0.0.1]/mcp' }, ['https-required', 'forbidden-address']],
      ['https://[::ffff:7f00:1] (mapped loopback, hex form)', { url: 'https://[::ffff:7f00:1]/mcp' }, ['forbidden-address']],
      ['NAT64 form of the metadata address', { url: 'https://[64:ff9b::a9fe:a9fe]/' }, ['forbidden-address']],
      ['AWS IPv6 metadata', { url: 'https://[fd00:ec2::254]/' }, ['forbidden-address']],
      ['IPv6 loopback', { url: 'https://[::1]/mcp' }, ['forbidden-address']],
      ['IPv6 link-local', { url: 'https://[fe80::1]/mcp' }, ['forbidden-address']],
      ['unspecified 0.0.0.0', { url: 'https://0.0.0.0/mcp' }, ['forbidden-address']],
      ['CGNAT', { url: 'https://100.64.1.1/mcp' }, ['forbidden-address']],
      ['decimal IPv4 (the URL parser normalizes it)', { url: 'https://2130706433/mcp' }, ['forbidden-address']],
      ['DNS name resolving to a private address', { url: 'https://internal.example.test/mcp' }, ['forbidden-address']],
      ['DNS name resolving to the metadata address', { url: 'https://metadata.example.test/' }, ['forbidden-address']],
      ['DNS name with one private address among public ones', { url: 'https://mixed.example.test/mcp' }, ['forbidden-address']],
      ['DNS name with a private IPv6 address', { url: 'https://ula.example.test/mcp' }, ['forbidden-address']],
      ['DNS name answering an IPv4-mapped loopback', { url: 'https://mapped.example.test/mcp' }, ['forbidden-address']],
      ['DNS name that does not resolve (fail closed)', { url: 'https://nowhere.example.test/mcp' }, ['unresolvable-host']],
      ['a stdio command', { command: 'bash', args: ['-c', 'id'] }, ['stdio']],
      ['a script path', { path: './server.py' }, ['stdio']],
      ['an npm package (npx)', { path: '@modelcontextprotocol/server-everything' }, ['stdio']],
      ['host env in a URL', { url: 'https://${SECRET_HOST}/mcp' }, ['host-env']],
      ['host env in a header', { url: 'https://mcp.example.test/mcp', headers: { Authorization: 'Bearer ${DATABASE_URL}' } }, ['host-env']],
      ['host env with a default', { url: 'https://mcp.example.test/mcp', headers: { 'X-A': '${HOME:-x}' } }, ['host-env']],
    ])('refuses %s', async (_, entry, rules) => {
      const error = await refusal(registry.servers.add('alice', 'x', entry));
      expect(error.code).toBe(ErrorCode.PolicyViolation);
      expect(rulesOf(error)).toEqual(rules);
      for (const rule of rules) expect(error.message).toContain(`[${rule}]`);
      expect(error.message).toContain('refused by the tenant policy');
      expect(await registry.servers.list('alice', { includeShared: false })).toEqual([]);
    });

    test('localhost is refused through the system resolver too', async () => {
      const system = await ServerRegistry.open({ db: database.db, keyFile: join(database.dir, 'secret.key'), resolveHost: systemResolver, watch: false });
      try {
        const error = await refusal(system.servers.add('alice', 'x', { url: 'https://localhost/mcp' }));
        expect(rulesOf(error)).toEqual(['forbidden-address']);
        expect(error.message).toMatch(/localhost resolves to (127\.0\.0\.1|::1), which is a loopback address/);
      } finally {
        await system.close();
      }
    });

    test('the error says what to do', async () => {
      const error = await refusal(registry.servers.add('alice', 'x', { command: 'bash' }));
      expect(error.message).toBe(
        'server "x" for user "alice" was refused by the tenant policy (stdio):\n  [stdio] x.command names a command on the gateway host; tenants cannot start server processes — use a remote https:// server, or an instance of an admin template (`switchboard templates list`)',
      );
      expect(JSON.stringify(error.toJSON())).not.toContain('${');
    });

    test('inheritEnv is refused (host-env)', async () => {
      await registry.setPolicy({ allowStdio: true });
      const error = await refusal(registry.servers.add('alice', 'x', { command: 'node', inheritEnv: ['DATABASE_URL'] }));
      expect(rulesOf(error)).toEqual(['host-env']);
    });

    test('templates: tenants run admin commands with typed parameters only', async () => {
      await registry.templates.add('sink', {
        command: process.execPath,
        args: [KITCHEN_SINK, '--name', '{{label}}', '--tools', '{{tools}}'],
        parameters: [
          { name: 'label', type: 'string', pattern: '[a-z0-9-]{1,20}' },
          { name: 'tools', type: 'string', required: false },
        ],
      });
      const server = await registry.servers.add('alice', 'mine', { template: 'sink', parameters: { label: 'alice-1' } });
      expect(server.kind).toBe('template');
      const spec = (await registry.configForUser('alice')).config.servers[0];
      expect(spec?.type === 'stdio' ? [spec.command, spec.args] : undefined).toEqual([process.execPath, [KITCHEN_SINK, '--name', 'alice-1', '--tools']]);

      expect(rulesOf(await refusal(registry.servers.add('alice', 'a', { template: 'sink', parameters: { label: 'Not Valid' } })))).toEqual(['template']);
      expect(rulesOf(await refusal(registry.servers.add('alice', 'b', { template: 'sink', parameters: { label: 'ok', tools: '--eval=require("child_process")' } })))).toEqual(['template']);
      expect(rulesOf(await refusal(registry.servers.add('alice', 'c', { template: 'sink', parameters: { label: 'ok', extra: 'x' } })))).toEqual(['template']);
      expect(rulesOf(await refusal(registry.servers.add('alice', 'd', { template: 'sink', parameters: {} })))).toEqual(['template']);
      // The instance cannot override the template's command or add environment.
      expect(rulesOf(await refusal(registry.servers.add('alice', 'e', { template: 'sink', parameters: { label: 'ok' }, command: 'bash' })))).toEqual(['template']);
      expect(rulesOf(await refusal(registry.servers.add('alice', 'f', { template: 'sink', parameters: { label: 'ok' }, env: { NODE_OPTIONS: '--require=/tmp/x.js' } })))).toEqual(['template']);
      const missing = await refusal(registry.servers.add('alice', 'g', { template: 'nope' }));
      expect(missing.code).toBe(ErrorCode.NotFound);
    });

    test('template parameter values are never expanded from the host environment', async () => {
      await registry.templates.add('echoer', { command: 'node', args: ['x.js', '{{value}}'], env: { VALUE: '{{value}}' }, parameters: [{ name: 'value' }] });
      await registry.servers.add('alice', 'e', { template: 'echoer', parameters: { value: '${HOME}' } });
      const spec = (await registry.configForUser('alice')).config.servers[0];
      expect(spec?.type === 'stdio' ? [spec.args[1], spec.env.VALUE] : undefined).toEqual(['${HOME}', '${HOME}']);
    });

    test('per-user server limit', async () => {
      await registry.setPolicy({ maxServers: 2 });
      await registry.servers.add('alice', 's1', { url: 'https://mcp.example.test/1' });
      await registry.servers.add('alice', 's2', { url: 'https://mcp.example.test/2' });
      const error = await refusal(registry.servers.add('alice', 's3', { url: 'https://mcp.example.test/3' }));
      expect(rulesOf(error)).toEqual(['server-limit']);
      expect(error.message).toContain('user "alice" has 2 of 2 servers');
      await registry.servers.add('bob', 's1', { url: 'https://mcp.example.test/1' });
      await registry.users.setPolicy('alice', { maxServers: 3 });
      await registry.servers.add('alice', 's3', { url: 'https://mcp.example.test/3' });
    });

    test('the server limit holds under concurrent registrations', async () => {
      await registry.setPolicy({ maxServers: 3 });
      // Two registries on one database stand for two processes. better-sqlite3 is synchronous, so two
      // SQLite connections in one process would wait on each other's lock inside one event loop: there
      // the second process is the CLI (see the e2e test), and here one registry races with itself.
      const other =
        kind === 'postgres' ? await ServerRegistry.open({ db: database.db, keyFile: join(database.dir, 'secret.key'), resolveHost: dns.resolver, watch: false }) : registry;
      try {
        const outcomes = await Promise.all(
          Array.from({ length: 8 }, (_, index) =>
            (index % 2 === 0 ? registry : other).servers.add('alice', `s${index}`, { url: `https://mcp.example.test/${index}` }).then(
              () => 'added',
              (error: unknown) => (isSwitchboardError(error) ? String(error.details.rules ?? error.message) : String(error)),
            ),
          ),
        );
        expect(outcomes.filter((outcome) => outcome === 'added')).toHaveLength(3);
        expect(outcomes.filter((outcome) => outcome !== 'added')).toEqual(Array(5).fill('server-limit'));
        expect(await registry.servers.list('alice', { includeShared: false })).toHaveLength(3);
      } finally {
        if (other !== registry) await other.close();
      }
    });

    test('admins loosen each rule explicitly, globally or per user', async () => {
      expect(rulesOf(await refusal(registry.servers.add('alice', 'local', { url: 'http://127.0.0.1:9/mcp' })))).toEqual(['https-required', 'forbidden-address']);
      await registry.setPolicy({ allowHttpHosts: ['127.0.0.1'] });
      expect(rulesOf(await refusal(registry.servers.add('alice', 'local', { url: 'http://127.0.0.1:9/mcp' })))).toEqual(['forbidden-address']);
      await registry.users.setPolicy('alice', { allowAddresses: ['127.0.0.0/8'] });
      await registry.servers.add('alice', 'local', { url: 'http://127.0.0.1:9/mcp' });
      // Only alice got the exception.
      expect(rulesOf(await refusal(registry.servers.add('bob', 'local', { url: 'http://127.0.0.1:9/mcp' })))).toEqual(['forbidden-address']);
      // A category allowance does not open the others: metadata stays closed.
      await registry.setPolicy({ allowAddresses: ['private', 'loopback'] });
      await registry.servers.add('bob', 'internal', { url: 'https://internal.example.test/mcp' });
      expect(rulesOf(await refusal(registry.servers.add('bob', 'meta', { url: 'https://metadata.example.test/' })))).toEqual(['forbidden-address']);
      await registry.users.setPolicy('bob', { allowStdio: true, allowHostEnv: true });
      await registry.servers.add('bob', 'proc', { command: 'node', args: ['x.js'], env: { HOME_DIR: '${HOME}' } });
      expect(rulesOf(await refusal(registry.servers.add('alice', 'proc', { command: 'node' })))).toEqual(['stdio']);
    });

    test('admins and shared servers are not bound by the policy', async () => {
      await registry.servers.add('root', 'proc', { command: 'node', args: ['x.js'] });
      await registry.servers.add('root', 'local', { url: 'http://127.0.0.1:9/mcp' });
      await registry.servers.add(null, 'shared-local', { url: 'http://127.0.0.1:9/mcp' });
      const config = await registry.configForUser('root');
      expect(config.policy).toBeUndefined();
      expect(config.tenantServers.size).toBe(0);
    });

    test('a tightened policy also removes already registered entries from the user\'s client', async () => {
      await registry.setPolicy({ allowStdio: true });
      await registry.servers.add('alice', 'proc', { command: 'node', args: ['x.js'] });
      expect((await registry.configForUser('alice')).config.servers.map((spec) => spec.name)).toEqual(['proc']);
      await registry.setPolicy({ allowStdio: false });
      const config = await registry.configForUser('alice');
      expect(config.config.servers).toEqual([]);
      expect(config.warnings.join('\n')).toContain('[stdio]');
    });

    test('an entry naming a host file, stored while its owner was an admin, is left out of the client once they are a tenant', async () => {
      await registry.users.setAdmin('alice', true);
      const entry = { url: 'https://mcp.example.test/mcp', oauth: { grant: 'client_credentials', clientId: 'c', privateKeyFile: '/etc/ssl/private/host.key' } };
      await registry.servers.add('alice', 'signer', entry);
      await registry.users.setAdmin('alice', false);
      const config = await registry.configForUser('alice');
      expect(config.config.servers).toEqual([]);
      expect(config.warnings.join('\n')).toContain('servers.signer.oauth.privateKeyFile: names a file on the gateway host');
      expect(config.warnings.join('\n')).not.toContain('/etc/ssl');
      // And a tenant cannot store it at all.
      expect((await refusal(registry.servers.add('alice', 'again', entry))).code).toBe(ErrorCode.ConfigInvalid);
    });
  });
}

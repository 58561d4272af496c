import { describe, expect, test } from 'vitest';
import { ConfigError } from '../errors.js';
import { normalizeConfig } from './normalize-config.js';

function issues(entry: Record<string, unknown>): string[] {
  try {
    normalizeConfig({ mcpServers: { remote: { url: 'https://mcp.example.com/mcp', ...entry } } }, { env: { SECRET: 'from-env-secret' } });
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map((issue) => `${issue.path}: ${issue.message}`);
    throw error;
  }
  return [];
}

function oauthOf(entry: Record<string, unknown>): unknown {
  const { config } = normalizeConfig({ mcpServers: { remote: { url: 'https://mcp.example.com/mcp', ...entry } } }, { env: { SECRET: 'from-env-secret' }, baseDir: '/base' });
  const spec = config.servers[0];
  return spec?.type === 'http' ? spec.oauth : undefined;
}

describe('oauth in a server entry', () => {
  test('`oauth: true` turns OAuth on with defaults; absent or false leaves it off', () => {
    expect(oauthOf({ oauth: true })).toEqual({ signingAlgorithm: 'RS256' });
    expect(oauthOf({})).toBeUndefined();
    expect(oauthOf({ oauth: false })).toBeUndefined();
  });

  test('settings are normalized: secrets from ${VAR}, scopes split and deduplicated, key files resolved', () => {
    expect(
      oauthOf({ oauth: { clientId: 'app', clientSecret: '${SECRET}', scopes: 'read  write read', privateKeyFile: 'keys/app.pem', signingAlgorithm: 'ES256', redirectPort: 8976 } }),
    ).toEqual({ clientId: 'app', clientSecret: 'from-env-secret', scopes: ['read', 'write'], privateKeyFile: '/base/keys/app.pem', signingAlgorithm: 'ES256', redirectPort: 8976 });
  });

  test('each cross-field mistake is reported at its path, without echoing secrets', () => {
    expect(issues({ oauth: { clientSecret: '${SECRET}' } })).toEqual(['mcpServers.remote.oauth.clientSecret: is set but `clientId` is not']);
    expect(issues({ oauth: { grant: 'client_credentials', clientId: 'app' } })).toEqual([
      'mcpServers.remote.oauth.grant: client_credentials needs `clientId` with `clientSecret` or a private key',
    ]);
    expect(issues({ oauth: { clientMetadataUrl: 'http://example.com/meta.json' } })).toEqual([
      'mcpServers.remote.oauth.clientMetadataUrl: must be an https:// URL with a path (the client ID metadata document)',
    ]);
    expect(issues({ oauth: { clientId: 'a', privateKey: 'PEM', privateKeyFile: 'k.pem' } })).toEqual(['mcpServers.remote.oauth.privateKeyFile: conflicts with `privateKey`']);
    expect(issues({ oauth: { clientId: 'a', privateKey: 'PEM', signingAlgorithm: 'none' } })[0]).toMatch(/^mcpServers\.remote\.oauth\.signingAlgorithm: must be one of RS256/);
    expect(issues({ oauth: { grant: 'jwt-bearer', clientId: 'a', clientSecret: '${SECRET}' } })).toEqual(['mcpServers.remote.oauth.grant: jwt-bearer needs the JWT it presents']);
    expect(issues({ oauth: { idp: { clientId: 'i', idToken: 't', url: 'https://idp.example.com' } } })).toEqual(['mcpServers.remote.oauth.idp: is only used by the jwt-bearer grant']);
    expect(issues({ oauth: { tokenUrl: 'x' } })[0]).toContain('mcpServers.remote.oauth');
    const all = issues({ apiKey: '${SECRET}', oauth: true });
    expect(all).toEqual(['mcpServers.remote.oauth: conflicts with `apiKey`']);
    expect(all.join('\n')).not.toContain('from-env-secret');
  });

  test('the jwt-bearer grant takes an identity provider', () => {
    expect(
      oauthOf({ oauth: { grant: 'jwt-bearer', clientId: 'a', clientSecret: 's3cret', idp: { tokenEndpoint: 'https://idp.example.com/token', clientId: 'idp-client', idToken: '${SECRET}' } } }),
    ).toMatchObject({ grant: 'jwt-bearer', idp: { tokenEndpoint: 'https://idp.example.com/token', clientId: 'idp-client', idToken: 'from-env-secret' } });
  });

  test('the jwt-bearer grant takes a workload JWT (workload identity federation): inline from ${VAR}, or a file, resolved', () => {
    expect(oauthOf({ oauth: { grant: 'jwt-bearer', clientId: 'workload', assertion: '${SECRET}' } })).toEqual({ grant: 'jwt-bearer', clientId: 'workload', assertion: 'from-env-secret', signingAlgorithm: 'RS256' });
    expect(oauthOf({ oauth: { grant: 'jwt-bearer', clientId: 'workload', assertionFile: 'tokens/mcp' } })).toEqual({ grant: 'jwt-bearer', clientId: 'workload', assertionFile: '/base/tokens/mcp', signingAlgorithm: 'RS256' });
    const idp = { clientId: 'i', idToken: 't', url: 'https://idp.example.com' };
    expect(issues({ oauth: { grant: 'jwt-bearer', assertion: '${SECRET}' } })).toEqual(['mcpServers.remote.oauth.clientId: is required by the jwt-bearer grant']);
    expect(issues({ oauth: { grant: 'jwt-bearer', clientId: 'w', assertion: '${SECRET}', assertionFile: 'f' } })).toEqual(['mcpServers.remote.oauth.assertionFile: conflicts with `assertion`']);
    expect(issues({ oauth: { grant: 'jwt-bearer', clientId: 'w', clientSecret: 's', idp, assertion: 'x' } })).toEqual(['mcpServers.remote.oauth.assertion: conflicts with `idp`']);
    expect(issues({ oauth: { clientId: 'w', assertionFile: 'f' } })).toEqual(['mcpServers.remote.oauth.assertionFile: is only used by the jwt-bearer grant']);
    expect(issues({ oauth: { grant: 'jwt-bearer', clientId: 'a', idp } })).toEqual(['mcpServers.remote.oauth.grant: jwt-bearer with `idp` needs `clientId` and `clientSecret` (registered with the server\'s authorization server)']);
    expect(issues({ oauth: { grant: 'jwt-bearer', assertion: '${SECRET}', assertionFile: 'f' } }).join('\n')).not.toContain('from-env-secret');
  });

  test('on a stdio server, oauth is ignored with a warning', () => {
    const { warnings } = normalizeConfig({ mcpServers: { local: { command: 'node', args: ['x.js'], oauth: true } } });
    expect(warnings.map((warning) => warning.path)).toContain('mcpServers.local.oauth');
  });
});

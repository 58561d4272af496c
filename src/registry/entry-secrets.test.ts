import { describe, expect, test } from 'vitest';
import { ErrorCode, isSwitchboardError } from '../errors.js';
import { hasClearSecrets, maskEntry, parseSecretPart, restoreMasked, sealEntry, unsealEntry } from './entry-secrets.js';

const SECRET = 'client-secret-0a1b2c3d4e5f6a7b';
const entry = {
  url: 'https://robot:url-password-123456@mcp.example.com/mcp?region=eu',
  headers: { 'X-Team': 'header-value-0a1b2c3d4e5f' },
  oauth: { grant: 'jwt-bearer', clientId: 'rs', clientSecret: SECRET, idp: { tokenEndpoint: 'https://idp.example.com/token', clientId: 'idp', idToken: 'id-token-0a1b2c3d4e5f6a7b8c' } },
  description: 'team server',
};

describe('sealing', () => {
  test('splits every secret off, in the entry\'s shape, and merges it back exactly', () => {
    const { publicPart, secretPart } = sealEntry(entry);
    expect(publicPart).toEqual({
      url: 'https://robot:xxxx@mcp.example.com/mcp?region=eu',
      oauth: { grant: 'jwt-bearer', clientId: 'rs', idp: { tokenEndpoint: 'https://idp.example.com/token', clientId: 'idp' } },
      description: 'team server',
    });
    expect(secretPart).toEqual({ url: entry.url, headers: entry.headers, oauth: { clientSecret: SECRET, idp: { idToken: entry.oauth.idp.idToken } } });
    expect(unsealEntry(publicPart, parseSecretPart(JSON.parse(JSON.stringify(secretPart)), 'x'))).toEqual(entry);
    expect(entry.oauth.clientSecret).toBe(SECRET); // the input is not changed
  });

  test('secret parts sealed before the OAuth fields were listed read back as they were', () => {
    const old = { apiKey: 'k', headers: { A: 'b' }, env: { T: 'v' }, url: 'https://u:p@h/mcp', path: 'https://h/mcp?token=t', parameters: { key: 's' } };
    expect(parseSecretPart(old, 'old')).toBe(old);
    expect(unsealEntry({ template: 't', parameters: { team: 'x' } }, { parameters: { key: 's' } })).toEqual({ template: 't', parameters: { team: 'x', key: 's' } });
  });

  test('a secret part with an unknown field or a wrong type is refused', () => {
    for (const bad of [{ command: 'x' }, { oauth: { clientId: 'x' } }, { oauth: { clientSecret: 3 } }, { headers: 'x' }, []]) {
      const error = (() => {
        try {
          parseSecretPart(bad, 'server "x"');
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(isSwitchboardError(error) && error.code, JSON.stringify(bad)).toBe(ErrorCode.SecretKeyInvalid);
    }
  });

  test('a public part is clear of secrets once sealed, not before', () => {
    expect(hasClearSecrets(entry)).toBe(true);
    expect(hasClearSecrets(sealEntry(entry).publicPart)).toBe(false);
    expect(hasClearSecrets({ url: 'https://mcp.example.com/mcp', oauth: { clientId: 'x' } })).toBe(false);
  });
});

describe('masking', () => {
  test('masks every listed field, nested ones included, and keeps the rest', () => {
    const masked = maskEntry(entry);
    expect(masked).toEqual({
      url: 'https://robot:xxxx@mcp.example.com/mcp?region=eu',
      headers: { 'X-Team': '••••4e5f' },
      oauth: { grant: 'jwt-bearer', clientId: 'rs', clientSecret: '••••6a7b', idp: { tokenEndpoint: 'https://idp.example.com/token', clientId: 'idp', idToken: '••••7b8c' } },
      description: 'team server',
    });
    expect(JSON.stringify(masked)).not.toContain(SECRET);
  });

  test('a masked value sent back keeps the stored one; a new value replaces it', () => {
    const shown = maskEntry(entry);
    expect(restoreMasked(shown, entry)).toEqual(entry);
    const edited = { ...shown, oauth: { ...(shown.oauth as Record<string, unknown>), clientSecret: 'new-secret-value-000000000' } };
    expect((restoreMasked(edited, entry).oauth as Record<string, unknown>).clientSecret).toBe('new-secret-value-000000000');
  });

  test('a stored secret is never sent to a new destination: a mask given back with another URL, command or idp is refused', () => {
    const key = { url: 'https://api.example.com/mcp', apiKey: 'stored-api-key-0a1b2c3d4e5f' };
    const shown = maskEntry(key);
    const refusedFor = (edited: Record<string, unknown>, previous: Record<string, unknown> = key): unknown => {
      try {
        restoreMasked(edited, previous);
        return undefined;
      } catch (error) {
        return error;
      }
    };
    const moved = refusedFor({ ...shown, url: 'https://tenant-host.example/mcp' });
    expect(isSwitchboardError(moved) && moved.code).toBe(ErrorCode.InvalidArgument);
    expect(String((moved as Error).message)).toMatch(/apiKey is given as its mask while url changed: a stored secret is never sent to a new destination/);
    expect(String((moved as Error).message)).not.toContain('stored-api-key');
    // With the secret given again in full, the new URL is fine; with the same URL, the mask keeps the stored key.
    expect(restoreMasked({ ...shown, url: 'https://tenant-host.example/mcp', apiKey: 'typed-again-000000000000' }, key)).toEqual({ url: 'https://tenant-host.example/mcp', apiKey: 'typed-again-000000000000' });
    expect(restoreMasked({ ...shown, description: 'renamed' }, key)).toEqual({ ...key, description: 'renamed' });
    // Another path on the same server is the same destination; another scheme or port is not.
    expect(restoreMasked({ ...shown, url: 'https://api.example.com/v2/mcp' }, key)).toEqual({ ...key, url: 'https://api.example.com/v2/mcp' });
    expect(refusedFor({ ...shown, url: 'http://api.example.com/mcp' })).toBeDefined();
    expect(refusedFor({ ...shown, url: 'https://api.example.com:8443/mcp' })).toBeDefined();
    const stdio = { command: 'npx', args: ['-y', 'some-server'], env: { TOKEN: 'env-token-0a1b2c3d4e5f6a7b' } };
    expect(refusedFor({ ...maskEntry(stdio), args: ['-y', 'other-server'] }, stdio)).toBeDefined();
    expect(refusedFor({ ...maskEntry(stdio), command: 'node' }, stdio)).toBeDefined();
    const shownOauth = maskEntry(entry).oauth as Record<string, unknown>;
    expect(refusedFor({ ...maskEntry(entry), oauth: { ...shownOauth, idp: { ...(shownOauth.idp as Record<string, unknown>), tokenEndpoint: 'https://idp.tenant.example/token' } } }, entry)).toBeDefined();
    const template = { template: 'github', parameters: { owner: 'acme', token: 'param-token-0a1b2c3d4e5f' } };
    const shownTemplate = maskEntry(template, new Set(['token']));
    expect(refusedFor({ ...shownTemplate, parameters: { ...(shownTemplate.parameters as Record<string, unknown>), owner: 'tenant' } }, template)).toBeDefined();
    expect(restoreMasked(shownTemplate, template)).toEqual(template);
  });
});

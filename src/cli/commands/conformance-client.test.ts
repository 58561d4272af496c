import { readFile } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { CONFORMANCE_CLIENT_METADATA_URL, argumentsFromSchema, oauthSettingsFromContext } from './conformance-client.js';

test('uses the library through its public API only', async () => {
  const source = await readFile(new URL('./conformance-client.ts', import.meta.url), 'utf8');
  const imports = [...source.matchAll(/from '([^']+)'/g)].map((match) => match[1]);
  expect(imports.filter((path) => path?.startsWith('../../'))).toEqual(['../../index.js', '../../index.js']);
});

test('the suite context becomes oauth settings, as a user would write them', () => {
  expect(oauthSettingsFromContext(undefined)).toEqual({ clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL });
  expect(oauthSettingsFromContext('{"client_id":"c","client_secret":"s"}')).toEqual({ clientId: 'c', clientSecret: 's' });
  expect(oauthSettingsFromContext('{"client_id":"c","private_key_pem":"PEM","signing_algorithm":"ES256"}')).toEqual({
    clientId: 'c',
    grant: 'client_credentials',
    privateKey: 'PEM',
    signingAlgorithm: 'ES256',
  });
  expect(
    oauthSettingsFromContext('{"client_id":"c","client_secret":"s","idp_client_id":"i","idp_id_token":"t","idp_token_endpoint":"http://idp/token","idp_issuer":"http://idp"}'),
  ).toEqual({ clientId: 'c', clientSecret: 's', grant: 'jwt-bearer', idp: { clientId: 'i', idToken: 't', tokenEndpoint: 'http://idp/token', url: 'http://idp' } });
  expect(oauthSettingsFromContext('not json')).toEqual({ clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL });
});

test('tool arguments come from defaults, enums, then types', () => {
  expect(
    argumentsFromSchema({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'integer', default: 5 }, c: { type: 'string', enum: ['x', 'y'] }, d: { type: 'boolean' }, e: { type: 'object', properties: { f: { type: 'string' } } } },
    }),
  ).toEqual({ a: 1, b: 5, c: 'x', d: true, e: { f: 'test' } });
});

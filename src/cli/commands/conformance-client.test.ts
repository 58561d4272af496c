import { readFile } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { CONFORMANCE_CLIENT_METADATA_URL, argumentsFromSchema, echoCallsFor, oauthSettingsFromContext, toolCallsFromContext, withoutOptionalNulls } from './conformance-client.js';

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
  expect(oauthSettingsFromContext('{"client_id":"w","valid_jwt":"eyJ.x.y","expired_jwt":"eyJ.old.z"}')).toEqual({ clientId: 'w', grant: 'jwt-bearer', assertion: 'eyJ.x.y' });
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

test('the tool calls a scenario asks for come from the context; none named means one call per tool', () => {
  expect(toolCallsFromContext(undefined)).toBeUndefined();
  expect(toolCallsFromContext('{"client_id":"c"}')).toBeUndefined();
  expect(toolCallsFromContext('{"toolCalls":[{"name":"a","arguments":{"x":null,"y":1}},{"name":"b"},{"arguments":{}},"junk"]}')).toEqual([
    { name: 'a', arguments: { x: null, y: 1 } },
    { name: 'b', arguments: {} },
  ]);
});

test('a null for an optional, non-nullable argument means not given; other nulls stay', () => {
  const schema = {
    type: 'object',
    properties: { flag: { type: 'boolean' }, note: { type: ['string', 'null'] }, must: { type: 'string' }, any: {} },
    required: ['must'],
  };
  expect(withoutOptionalNulls(schema, { flag: null, note: null, must: null, any: null, kept: 1 })).toEqual({ note: null, must: null, any: null, kept: 1 });
});

test('the schema round trip sends the focal tool\'s listed schema, unchanged, to the echo tool; other scenarios plan nothing', () => {
  const focal = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', $defs: { a: { $anchor: 'a', type: 'string' } }, properties: { x: { $ref: '#/$defs/a' } } };
  const tools = [
    { name: 'json_schema_2020_12_tool', inputSchema: focal },
    { name: 'json_schema_echo', inputSchema: { type: 'object', properties: { schema: { type: 'object' } } } },
  ];
  const calls = echoCallsFor('json-schema-2020-12-preservation', tools);
  expect(calls).toEqual([{ name: 'json_schema_echo', arguments: { schema: focal } }]);
  expect(calls?.[0]?.arguments.schema).toBe(focal);
  expect(echoCallsFor('tools_call', tools)).toBeUndefined();
  expect(echoCallsFor(undefined, tools)).toBeUndefined();
  expect(echoCallsFor('json-schema-2020-12-preservation', tools.slice(1))).toBeUndefined();
});

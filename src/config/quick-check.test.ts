import { expect, test } from 'vitest';
import { configSchemas } from './config-schemas.js';
import { isPlainServerEntry, isPlainTopLevel } from './quick-check.js';
import { SERVER_ENTRY_KEYS, TOP_LEVEL_KEYS } from './schema.js';

test('the key lists are the schema keys', () => {
  const { serverEntrySchema, topLevelSchema } = configSchemas();
  expect([...SERVER_ENTRY_KEYS].sort()).toEqual(Object.keys(serverEntrySchema.shape).sort());
  expect([...TOP_LEVEL_KEYS].filter((key) => key !== '$schema' && key !== 'inputs').sort()).toEqual(Object.keys(topLevelSchema.shape).sort());
});

test('the common shapes pass the quick check (so zod is not loaded for them)', () => {
  for (const entry of [
    { command: 'npx', args: ['-y', 'pkg', 1, true], env: { A: 'x', N: 2 } },
    { url: 'https://h/mcp', headers: { 'X-Key': 'k' }, transport: 'sse', apiKey: 'k', timeout: '5s', callTimeout: 30 },
    { path: 'server.py --v', cwd: 'w', include: ['a*'], exclude: [], prefix: 'fs', enabled: false, description: 'd', inheritEnv: ['HOME'], apiKeyEnv: 'KEY' },
  ]) {
    expect(isPlainServerEntry(entry)).toBe(true);
  }
  expect(isPlainTopLevel({ mcpServers: {}, naming: 'prefix', onServerError: 'throw', $schema: 'x' })).toBe(true);
});

// Random entries built from valid and invalid values of every field: whatever the quick check vouches
// for, the schema must accept. (The other way round it may be stricter; zod then decides.)
test('the quick check is never more lenient than the schema', () => {
  const { serverEntrySchema, topLevelSchema } = configSchemas();
  const values: unknown[] = ['x', '', 'API_KEY', '1bad', 'ok-prefix_1', 'has space', 'sse', 'http', 'grpc', 3, 0, -1, true, false, null, undefined, [], ['a'], [1], ['a', 2], [{}], {}, { a: 'b' }, { a: 1 }, { a: {} }, { a: null }];
  const keys = [...SERVER_ENTRY_KEYS, 'unknownKey'];
  let seed = 42;
  const random = (n: number): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % n;
  };
  let vouched = 0;
  for (let round = 0; round < 20_000; round++) {
    const entry: Record<string, unknown> = {};
    const fields = 1 + random(4);
    for (let field = 0; field < fields; field++) entry[keys[random(keys.length)] as string] = values[random(values.length)];
    if (isPlainServerEntry(entry)) {
      vouched++;
      expect(serverEntrySchema.safeParse(entry).success, JSON.stringify(entry)).toBe(true);
    }
    const top = { [['mcpServers', 'servers', 'naming', 'onServerError', 'other'][random(5)] as string]: values[random(values.length)] };
    if (isPlainTopLevel(top)) expect(topLevelSchema.safeParse(top).success, JSON.stringify(top)).toBe(true);
  }
  expect(vouched).toBeGreaterThan(1_000);
});

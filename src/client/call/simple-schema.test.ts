import { Ajv } from '@modelcontextprotocol/client/validators/ajv';
import { describe, expect, it } from 'vitest';
import { compileSimpleSchema } from './simple-schema.js';
import { pick, seededRandom, type Rand } from '../../../test/helpers/seeded-random.js';

const NAMES = ['a', 'b', 'query', 'limit', 'constructor', 'toString'];
const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

function schemaOf(rand: Rand, depth: number): unknown {
  if (rand() < 0.05) return true;
  const schema: Record<string, unknown> = {};
  const type = rand() < 0.2 ? [...new Set([pick(rand, TYPES), pick(rand, TYPES)])] : pick(rand, TYPES);
  if (rand() < 0.85) schema.type = type;
  if (depth < 3 && rand() < 0.6) {
    const properties: Record<string, unknown> = {};
    for (let count = Math.floor(rand() * 4); count > 0; count--) properties[pick(rand, NAMES)] = schemaOf(rand, depth + 1);
    schema.properties = properties;
  }
  if (rand() < 0.4) schema.required = [...new Set([pick(rand, NAMES), pick(rand, NAMES)])];
  if (rand() < 0.3) schema.additionalProperties = rand() < 0.5 ? false : depth < 3 ? schemaOf(rand, depth + 1) : true;
  if (rand() < 0.15) schema.enum = ['x', 1, null, true, 'fast'].filter(() => rand() < 0.6).concat('fast2');
  if (rand() < 0.05) schema.const = pick(rand, ['x', 2, null, false]);
  if (depth < 3 && rand() < 0.2) schema.items = schemaOf(rand, depth + 1);
  for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems']) {
    if (rand() < 0.07) schema[key] = Math.floor(rand() * 6) - (key.endsWith('imum') ? 1 : 0);
  }
  if (rand() < 0.07) schema.pattern = pick(rand, ['^a', 'b$', '\\d', '^\\p{L}+$']);
  if (rand() < 0.05) schema.anyOf = [{ type: 'string' }];
  if (rand() < 0.1) schema.description = 'annotated';
  return schema;
}

function valueOf(rand: Rand, depth: number): unknown {
  const kind = pick(rand, ['string', 'number', 'integer', 'boolean', 'null', 'object', 'array', 'odd']);
  switch (kind) {
    case 'string':
      return pick(rand, ['', 'a', 'ab1', 'fast', 'x', '😀😀', 'bab']);
    case 'number':
      return pick(rand, [-1.5, 0.5, 2.25, 1e300]);
    case 'integer':
      return pick(rand, [-1, 0, 1, 2, 3, 5, -0]);
    case 'boolean':
      return rand() < 0.5;
    case 'null':
      return null;
    case 'object': {
      const value: Record<string, unknown> = {};
      if (depth < 3) for (let count = Math.floor(rand() * 4); count > 0; count--) value[pick(rand, NAMES)] = valueOf(rand, depth + 1);
      return value;
    }
    case 'array':
      return depth < 3 ? Array.from({ length: Math.floor(rand() * 3) }, () => valueOf(rand, depth + 1)) : [];
    default:
      return pick(rand, [undefined, Number.NaN, Number.POSITIVE_INFINITY, new Date(0), { a: undefined }]);
  }
}

describe('compileSimpleSchema', () => {
  it('is never more lenient than Ajv (randomized schemas and values, seeded)', () => {
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    let compiled = 0;
    let accepted = 0;
    for (let seed = 1; seed <= 1_500; seed++) {
      const rand = seededRandom(seed);
      const schema = schemaOf(rand, 0);
      const simple = compileSimpleSchema(schema);
      if (simple === undefined) continue;
      compiled++;
      // A schema Ajv rejects is not enforced at all (see ArgumentValidator), so nothing is too lenient for it.
      const validate = ajv.compile(schema as object);
      for (let sample = 0; sample < 20; sample++) {
        const value = valueOf(rand, 0);
        if (!simple(value)) continue;
        accepted++;
        // Shown on failure: the seed reproduces the case.
        expect({ seed, schema, value, ajv: validate(value) }).toEqual({ seed, schema, value, ajv: true });
      }
    }
    // The generator must exercise the fast path, or this test proves nothing.
    expect(compiled).toBeGreaterThan(500);
    expect(accepted).toBeGreaterThan(2_000);
  });

  it('declines schemas it does not understand, so Ajv judges them', () => {
    expect(compileSimpleSchema({ type: 'object', properties: { a: { $ref: '#/x' } } })).toBeUndefined();
    expect(compileSimpleSchema({ anyOf: [{ type: 'string' }] })).toBeUndefined();
    expect(compileSimpleSchema({ type: 'object', properties: { constructor: { type: 'string' } } })).toBeUndefined();
    expect(compileSimpleSchema({ type: 'strng' })).toBeUndefined();
    expect(compileSimpleSchema({ pattern: '(' })).toBeUndefined();
  });

  it('accepts what a typical tool schema allows and only that', () => {
    const check = compileSimpleSchema({
      type: 'object',
      properties: { query: { type: 'string', minLength: 1 }, limit: { type: 'integer', minimum: 1 }, mode: { enum: ['fast', 'deep'] } },
      required: ['query'],
      additionalProperties: false,
    });
    expect(check).toBeDefined();
    expect(check?.({ query: 'q', limit: 3, mode: 'fast' })).toBe(true);
    expect(check?.({ query: '' })).toBe(false);
    expect(check?.({ query: 'q', limit: 1.5 })).toBe(false);
    expect(check?.({ query: 'q', mode: 'slow' })).toBe(false);
    expect(check?.({ query: 'q', extra: 1 })).toBe(false);
    expect(check?.({ limit: 2 })).toBe(false);
  });
});

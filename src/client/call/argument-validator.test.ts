import { describe, expect, it, test } from 'vitest';
import { ArgumentValidator, MAX_CHECKED_SCHEMA_CHARS, formatArgumentProblems } from './argument-validator.js';

const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { query: { type: 'string' }, limit: { type: 'integer', minimum: 1 }, mode: { enum: ['fast', 'deep'] }, filter: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] } },
  required: ['query'],
  additionalProperties: false,
};

test('problems name the field and what was expected', async () => {
  const validator = new ArgumentValidator();
  const problems = await validator.validate(schema, { limit: 0, mode: 'slow', extra: 1, filter: {} });
  expect(problems).toEqual(
    expect.arrayContaining([
      { path: 'query', message: 'is required but missing' },
      { path: 'extra', message: 'is not an accepted argument' },
      { path: 'limit', message: 'must be >= 1' },
      { path: 'mode', message: 'must be one of ["fast","deep"]' },
      { path: 'filter.tag', message: 'is required but missing' },
    ]),
  );
  expect(formatArgumentProblems([{ path: 'query', message: 'is required but missing' }])).toBe('`query` is required but missing');
});

test('valid arguments pass; a schema that does not compile is not enforced', async () => {
  const validator = new ArgumentValidator();
  expect(await validator.validate(schema, { query: 'x', limit: 2 })).toEqual([]);
  expect(await validator.validate({ type: 'object', properties: { a: { $ref: '#/nowhere' } } }, { a: 1 })).toEqual([]);
});

test('a string where an object is expected', async () => {
  expect(await new ArgumentValidator().validate({ type: 'object' }, 'text')).toEqual([{ path: '', message: 'must be of type object' }]);
});

const simpleSchema = () => ({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false });

describe('ArgumentValidator', () => {
  it('reports problems an LLM can act on', async () => {
    const validator = new ArgumentValidator();
    expect(await validator.validate(simpleSchema(), { text: 1, extra: true })).toEqual([
      { path: 'extra', message: 'is not an accepted argument' },
      { path: 'text', message: 'must be of type string' },
    ]);
  });

  it('accepts valid arguments of a simple schema on the first call, synchronously, without waiting for Ajv', () => {
    const validator = new ArgumentValidator();
    expect(validator.validate(simpleSchema(), { text: 'a' })).toEqual([]);
  });

  // `anyOf` is beyond the fast check, so Ajv judges every call of this schema.
  const ajvOnlySchema = () => ({ type: 'object', properties: { text: { anyOf: [{ type: 'string' }, { type: 'number' }] } }, required: ['text'] });

  it('answers synchronously once Ajv has compiled a schema, and concurrent first calls share the compilation', async () => {
    const validator = new ArgumentValidator();
    const tool = ajvOnlySchema();
    const first = validator.validate(tool, { text: 'a' });
    const second = validator.validate(tool, {});
    expect(first).toBeInstanceOf(Promise);
    expect(second).toBeInstanceOf(Promise);
    expect(await first).toEqual([]);
    expect(await second).toEqual([{ path: 'text', message: 'is required but missing' }]);
    expect(validator.validate(tool, { text: 'b' })).toEqual([]);
  });

  it('keeps the compiled validator for an equal schema listed again (a new object)', async () => {
    const validator = new ArgumentValidator();
    await validator.validate(ajvOnlySchema(), { text: 'a' });
    expect(validator.validate(ajvOnlySchema(), {})).toEqual([{ path: 'text', message: 'is required but missing' }]);
    // A simple schema's invalid call goes to Ajv too, and is answered from the same cache when relisted.
    await validator.validate(simpleSchema(), {});
    expect(validator.validate(simpleSchema(), {})).toEqual([{ path: 'text', message: 'is required but missing' }]);
  });
});

describe('never stricter than the server', () => {
  // @playwright/mcp 0.0.83's browser_take_screenshot: `scale` is required and has a default; the server accepts `{}`.
  const screenshot = () => ({
    type: 'object',
    properties: { type: { type: 'string', enum: ['png', 'jpeg', 'webp'] }, fullPage: { type: 'boolean' }, scale: { default: 'css', type: 'string', enum: ['css', 'device'] } },
    required: ['scale'],
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    additionalProperties: false,
  });

  it('a required property with a default is not missing (fast check and Ajv)', async () => {
    const validator = new ArgumentValidator();
    expect(validator.validate(screenshot(), {})).toEqual([]);
    // An argument that sends Ajv down its path must not bring the missing `scale` back.
    expect(await validator.validate(screenshot(), { type: 'gif' })).toEqual([{ path: 'type', message: 'must be one of ["png","jpeg","webp"]' }]);
    expect(await validator.validate(screenshot(), { scale: 'huge' })).toEqual([{ path: 'scale', message: 'must be one of ["css","device"]' }]);
  });

  it('also inside nested objects, arrays and $defs, and without changing the arguments sent', async () => {
    const validator = new ArgumentValidator();
    const nested = {
      type: 'object',
      properties: {
        options: { type: 'object', properties: { depth: { type: 'integer', default: 1 } }, required: ['depth'] },
        items: { type: 'array', items: { $ref: '#/$defs/item' } },
      },
      $defs: { item: { type: 'object', properties: { level: { type: 'string', default: 'info' }, text: { type: 'string' } }, required: ['level', 'text'] } },
    };
    const args = { options: {}, items: [{ text: 'a' }] };
    expect(await validator.validate(nested, args)).toEqual([]);
    expect(args).toEqual({ options: {}, items: [{ text: 'a' }] });
    expect(await validator.validate(nested, { items: [{}] })).toEqual([{ path: 'items.0.text', message: 'is required but missing' }]);
  });
});

test('a schema larger than MAX_CHECKED_SCHEMA_CHARS is not compiled here: anything passes, and the server judges', async () => {
  const validator = new ArgumentValidator();
  const values = Array.from({ length: 20_000 }, (_, index) => ({ v: index }));
  const schema = { type: 'object', properties: { a: { anyOf: [{ enum: values }] } }, required: ['a'] };
  expect(JSON.stringify(schema).length).toBeGreaterThan(MAX_CHECKED_SCHEMA_CHARS);
  // With the schema compiled, a missing `a` is refused; here it passes unchecked.
  expect(await validator.validate(schema, {})).toEqual([]);
  const small = { type: 'object', properties: { a: { anyOf: [{ enum: values.slice(0, 10) }] } }, required: ['a'] };
  expect(await validator.validate(small, {})).not.toEqual([]);
});

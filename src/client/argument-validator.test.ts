import { expect, test } from 'vitest';
import { ArgumentValidator, formatArgumentProblems } from './argument-validator.js';

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

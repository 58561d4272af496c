import { describe, expect, it } from 'vitest';
import { ArgumentValidator } from './argument-validator.js';

const schema = () => ({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false });

describe('ArgumentValidator', () => {
  it('reports problems an LLM can act on', async () => {
    const validator = new ArgumentValidator();
    expect(await validator.validate(schema(), { text: 1, extra: true })).toEqual([
      { path: 'extra', message: 'is not an accepted argument' },
      { path: 'text', message: 'must be of type string' },
    ]);
  });

  it('answers synchronously once a schema is compiled, and concurrent first calls share the compilation', async () => {
    const validator = new ArgumentValidator();
    const tool = schema();
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
    await validator.validate(schema(), { text: 'a' });
    const relisted = schema();
    expect(validator.validate(relisted, {})).toEqual([{ path: 'text', message: 'is required but missing' }]);
  });
});

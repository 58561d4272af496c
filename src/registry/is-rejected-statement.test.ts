import { describe, expect, test } from 'vitest';
import { isRejectedStatement } from './is-rejected-statement.js';

describe('isRejectedStatement', () => {
  test('a refused statement is not retried; a lost or busy database is', () => {
    expect(isRejectedStatement({ code: '23505', severity: 'ERROR' })).toBe(true);
    expect(isRejectedStatement({ code: '42P01', severity: 'ERROR' })).toBe(true);
    expect(isRejectedStatement({ code: 'SQLITE_CONSTRAINT_NOTNULL' })).toBe(true);
    expect(isRejectedStatement({ code: '57P01', severity: 'FATAL' })).toBe(false);
    expect(isRejectedStatement({ code: '08006', severity: 'FATAL' })).toBe(false);
    expect(isRejectedStatement({ code: 'ECONNRESET' })).toBe(false);
    expect(isRejectedStatement({ code: 'SQLITE_BUSY' })).toBe(false);
    expect(isRejectedStatement(new Error('Connection terminated unexpectedly'))).toBe(false);
  });
});

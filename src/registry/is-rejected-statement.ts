/**
 * @module registry/is-rejected-statement
 * Tells a statement the database refused (bad data, a missing table: retrying cannot help) from a
 * database that could not be reached or was busy (a restart, a dropped connection: retrying will).
 */

/**
 * PostgreSQL SQLSTATE classes of refused statements: data exception, integrity constraint, syntax
 * or access rule, feature not supported, program limit exceeded. Others (08 connection, 53
 * resources, 57 operator intervention such as a shutdown, 58 system, 40 rollback) pass with time.
 */
const REFUSED_SQLSTATE_CLASSES = new Set(['22', '23', '42', '0A', '54']);
/** SQLite result codes of refused statements (BUSY, LOCKED, IOERR, FULL pass with time). */
const REFUSED_SQLITE_CODES = /^SQLITE_(?:CONSTRAINT|MISMATCH|TOOBIG|RANGE|ERROR)/;

/** True when the database itself refused the statement, so sending it again would fail again. */
export function isRejectedStatement(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error) || typeof error.code !== 'string') return false;
  const code = error.code;
  // pg's DatabaseError carries a five-character SQLSTATE and a severity; socket errors (ECONNRESET…) have neither.
  if (/^[0-9A-Z]{5}$/.test(code) && 'severity' in error) return REFUSED_SQLSTATE_CLASSES.has(code.slice(0, 2));
  return REFUSED_SQLITE_CODES.test(code);
}

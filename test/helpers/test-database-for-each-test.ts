/**
 * The database of a registry suite: created once for the describe block, emptied before each test,
 * dropped after the block.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createTestDatabase, type BackendKind, type TestDatabase } from './registry-backends.js';

/**
 * Call in a describe block before its own `beforeEach` (before hooks run in the order they were
 * declared, so the database is empty when that one opens the registry). The returned database reads
 * through to the one created in `beforeAll`; use it inside hooks and tests only.
 */
export function testDatabaseForEachTest(kind: BackendKind): TestDatabase {
  let database: TestDatabase | undefined;
  const current = (): TestDatabase => {
    if (database === undefined) throw new Error(`the ${kind} test database is not created yet: use it inside a hook or a test`);
    return database;
  };
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => database?.drop());
  beforeEach(async () => {
    await current().reset();
  });
  return {
    kind,
    get db() {
      return current().db;
    },
    get dir() {
      return current().dir;
    },
    get file() {
      return current().file;
    },
    reset: () => current().reset(),
    drop: () => current().drop(),
  };
}

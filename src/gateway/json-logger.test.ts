import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createJsonLogger } from './json-logger.js';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('createJsonLogger', () => {
  test('no line carries a URL\'s credentials, in the message or any field (issue 14, finding 4)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sb-log-'));
    const file = join(dir, 'log.jsonl');
    const fd = openSync(file, 'w');
    try {
      const { logger, flush } = await createJsonLogger({ level: 'debug', fd, sync: true });
      logger.child({ server: 'x' }).warn('server failed: http://user:pw-1f2e@127.0.0.1:9/mcp?api_key=key-3d4c', { url: 'http://user:pw-1f2e@127.0.0.1:9/mcp?api_key=key-3d4c', error: 'fetch http://user:pw-1f2e@h/' });
      flush();
    } finally {
      closeSync(fd);
    }
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('"msg":"server failed: http://••••@127.0.0.1:9/mcp?api_key=••••"');
    expect(text).not.toMatch(/pw-1f2e|key-3d4c/);
  });
});

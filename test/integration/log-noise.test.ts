/**
 * What MultiServerClient logs at `warn` is what a CLI user sees on every command: only real problems.
 * A server that does not implement an optional list (the real server-postgres answers
 * resources/templates/list with "Method not found") is normal and logs at debug; a real failure of an
 * optional list stays a warning; closing the client while it re-lists after list_changed is not a
 * failure at all.
 */
import { describe, expect, test } from 'vitest';
import { FAULT_SERVER, bin } from '../helpers/fixtures.js';
import { connectForEachTest } from '../helpers/connect-for-each-test.js';
import { nextEvent } from '../helpers/next-event.js';
import { recordingLogger } from '../helpers/recording-logger.js';

const connect = connectForEachTest();
const POSTGRES_URL = 'postgresql://127.0.0.1:5432/postgres';
const postgres = (user: string) => ({ command: bin('mcp-server-postgres'), args: [POSTGRES_URL], env: { PGUSER: user }, timeout: 30 });

describe('optional lists', () => {
  test('server-postgres without resource templates ("Method not found"): debug, not warn', async () => {
    const logger = recordingLogger();
    const client = await connect({ mcpServers: { postgres: postgres('postgres') } }, { logger });
    expect(client.status()[0]).toMatchObject({ name: 'postgres', state: 'ready' });
    expect(logger.lines.filter((line) => line.level === 'warn')).toEqual([]);
    expect(logger.lines).toContainEqual(
      expect.objectContaining({ level: 'debug', message: expect.stringContaining('resource templates'), fields: expect.objectContaining({ server: 'postgres' }) }),
    );
  });

  test('a real failure of an optional list (server-postgres cannot log in to list resources) stays a warning', async () => {
    const logger = recordingLogger();
    await connect({ mcpServers: { postgres: postgres('no_such_role_for_switchboard') } }, { logger });
    const warnings = logger.lines.filter((line) => line.level === 'warn');
    expect(warnings).toEqual([expect.objectContaining({ message: expect.stringContaining('listing resources failed'), fields: expect.objectContaining({ server: 'postgres' }) })]);
  });
});

test('closing while re-listing tools after list_changed logs no warning', async () => {
  const logger = recordingLogger();
  const client = await connect(
    { mcpServers: { fault: { command: process.execPath, args: [FAULT_SERVER, '--mode', 'ok', '--hold-relist'] } } },
    { logger, listChangedDebounceMs: 0 },
  );
  const holding = nextEvent(client, 'server-log', (event) => String(event.data).includes('holding tools/list'));
  await client.callTool('add_tool', { name: 'late' });
  await holding;
  await client.close();
  expect(logger.lines.filter((line) => line.level === 'warn')).toEqual([]);
});

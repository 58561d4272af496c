/**
 * A `list_changed` flood does not starve the catalog (issue 14, finding 8c): a real server that
 * renames its tool and sends notifications/tools/list_changed every 10 ms, without a pause. The
 * debounce used to restart on every notification, so the catalog never refreshed; now it re-lists
 * at the latest `listChangedMaxWaitMs` after the first notification waiting.
 */
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { FIXTURES } from '../helpers/fixtures.js';
import { connectForEachTest } from '../helpers/connect-for-each-test.js';
import { nextEvent } from '../helpers/next-event.js';

const connect = connectForEachTest();
const FLOOD_SERVER = resolve(FIXTURES, 'list-flood-server.mjs');

test('under a list_changed flood every 10 ms the catalog still refreshes, within the maximum wait, again and again', async () => {
  const client = await connect(
    { mcpServers: { flood: { command: process.execPath, args: [FLOOD_SERVER, '--interval', '10'] } } },
    // A debounce far longer than the flood's interval: without a maximum wait it would never fire.
    { listChangedDebounceMs: 400, listChangedMaxWaitMs: 800 },
  );
  const first = client.listTools().map((tool) => tool.name);
  expect(first).toHaveLength(1);
  const seen = new Set(first);
  for (let round = 0; round < 3; round++) {
    await nextEvent(client, 'tools-changed', () => true, 5_000);
    const names = client.listTools().map((tool) => tool.name);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^gen_\d+$/);
    seen.add(names[0] ?? '');
  }
  expect(seen.size).toBeGreaterThanOrEqual(3);
});

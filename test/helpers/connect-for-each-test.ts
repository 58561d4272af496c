/**
 * Clients that a test connects and the test file closes after each test (so a failing test leaves no
 * server process behind for the next one).
 */
import { afterEach } from 'vitest';
import { MultiServerClient } from '../../src/client/multi-server-client.js';

/** Call at a test file's top level; the returned `connect` is `MultiServerClient.connect`, closed after each test. */
export function connectForEachTest(): (config: Record<string, unknown>, options?: Parameters<typeof MultiServerClient.connect>[1]) => Promise<MultiServerClient> {
  const clients: MultiServerClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  return async (config, options = {}) => {
    const client = await MultiServerClient.connect(config, options);
    clients.push(client);
    return client;
  };
}

/**
 * @module cli/start-for-call
 * `switchboard call` starts only what one call needs: the server that owns the name, as the catalog
 * cache knows it — not all of them (11 servers, two Chromiums, for one tool); with `--server` and
 * another server's name, only the named one (the call is refused). When the name is not
 * known, or no longer the owner's once it is up, every server starts, so the name (or the "Did you
 * mean") comes from every list, exactly as `switchboard tools` shows them.
 */

import type { MultiServerClient } from '../client/multi-server-client.js';

/** Starts the servers a call of `name` needs (the client was connected with `start: false`). */
export async function startForCall(client: MultiServerClient, name: string, server: string | undefined): Promise<void> {
  const enabled = client.status().filter((status) => status.enabled);
  for (let round = 0; round < enabled.length; round++) {
    const owner = client.ownerOf(name);
    if (owner === undefined) break;
    if (server !== undefined && owner.server !== server) {
      // Another server's tool: refused; only the named server is needed, for its suggestions.
      await client.startServer(server);
      return;
    }
    if (owner.offered) return;
    // Only a server not started yet: one that failed or is starting, the call reports, with its reason.
    if (client.status().find((status) => status.name === owner.server)?.state !== 'closed') return;
    await client.startServer(owner.server);
  }
  await Promise.all(enabled.filter((status) => status.state === 'closed').map((status) => client.startServer(status.name)));
}

/**
 * @module cli/commands/oauth-clients
 * `switchboard oauth-clients list|add|remove`: the OAuth clients the gateway's authorization server
 * knows without registration — the built-in CLI and dashboard clients, and the administrator's own
 * (public clients with exact redirect URIs, kept in the registry without expiry).
 */

import type { Logger } from '../../logger.js';
import { addPreregisteredClient, listPreregisteredClients, removePreregisteredClient } from '../../gateway/oauth-server/preregistered-clients.js';
import { usageError } from '../cli-error.js';
import { withRegistry } from '../open-registry.js';
import { writeJson, writeResult } from '../output.js';
import { booleanFlag, checkPositionals, listFlag, parseCommandArgs, stringFlag } from '../registry-args.js';

const USAGE = 'switchboard oauth-clients list | add ID --redirect-uri URI [--redirect-uri URI…] [--name TEXT] | remove ID';

/** Runs `switchboard oauth-clients …` from the command line. */
export async function oauthClients(argv: readonly string[], logger: Logger): Promise<void> {
  const args = parseCommandArgs(argv, { 'redirect-uri': { type: 'string', multiple: true }, name: { type: 'string' }, 'public-url': { type: 'string' } });
  const [, action, id] = args.positionals;
  const json = booleanFlag(args, 'json');
  // The built-in dashboard client redirects to the gateway's own origin: name it as the gateway does.
  const issuer = (stringFlag(args, 'public-url') ?? 'http://127.0.0.1:7410').replace(/\/+$/, '');
  switch (action) {
    case 'list': {
      checkPositionals(args, 2, USAGE);
      const clients = await withRegistry(stringFlag(args, 'db'), logger, (registry) => listPreregisteredClients(registry.oauthServer, issuer));
      if (json) writeJson({ clients });
      else writeResult(clients.map((client) => `${client.clientId}  ${client.clientName}${client.builtIn ? ' (built in)' : ''}\n  ${client.redirectUris.join('\n  ')}`).join('\n'));
      return;
    }
    case 'add': {
      checkPositionals(args, 3, USAGE);
      if (id === undefined) throw usageError(`a client id is needed; usage: ${USAGE}`);
      const name = stringFlag(args, 'name');
      await withRegistry(stringFlag(args, 'db'), logger, (registry) => addPreregisteredClient(registry.oauthServer, { clientId: id, redirectUris: listFlag(args, 'redirect-uri'), ...(name === undefined ? {} : { clientName: name }) }));
      if (json) writeJson({ added: id });
      else writeResult(`added OAuth client "${id}"`);
      return;
    }
    case 'remove': {
      checkPositionals(args, 3, USAGE);
      if (id === undefined) throw usageError(`a client id is needed; usage: ${USAGE}`);
      await withRegistry(stringFlag(args, 'db'), logger, (registry) => removePreregisteredClient(registry.oauthServer, id));
      if (json) writeJson({ removed: id });
      else writeResult(`removed OAuth client "${id}"`);
      return;
    }
    default:
      throw usageError(`${action === undefined ? 'an action is needed' : `unknown action "${action}"`}; usage: ${USAGE}`);
  }
}

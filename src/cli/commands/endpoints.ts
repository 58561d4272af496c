/**
 * @module cli/commands/endpoints
 * `switchboard endpoints put NAME (--definition JSON|@file | --server G… --tool G… [--read-only]
 * [--group G]… [--user U]… [--approve-writes]) [--owner U] | list | show NAME | remove NAME |
 * everything on|off`: named endpoints served at `/mcp/e/NAME`, and whether `/mcp` serves every tool.
 * `show` prints the connection snippets of Claude Desktop, Cursor and VS Code.
 */

import type { Logger } from '../../logger.js';
import type { EndpointRecord } from '../../registry/index.js';
import { connectionSnippets } from '../../gateway/access/connection-snippets.js';
import { unknownActionError, usageError } from '../cli-error.js';
import { withRegistry } from '../open-registry.js';
import { writeJson, writeResult } from '../output.js';
import { booleanFlag, checkPositionals, listFlag, parseCommandArgs, stringFlag } from '../registry-args.js';
import { jsonDefinition } from './access-scope-flag.js';

const USAGE =
  'switchboard endpoints put NAME (--definition JSON|@file | [--server GLOB]… [--tool GLOB]… [--read-only] [--user U]… [--group G]… [--approve-writes]) [--owner USER] | endpoints list [--json] | endpoints show NAME [--url BASE] | endpoints remove NAME | endpoints everything on|off';

function summary(endpoint: EndpointRecord): string {
  const who = [...(endpoint.access?.users ?? []).map((user) => `user ${user}`), ...(endpoint.access?.groups ?? []).map((group) => `group ${group}`)];
  return `${endpoint.name}: servers ${(endpoint.servers ?? ['*']).join(',')}, tools ${(endpoint.tools ?? ['*']).join(',')}${endpoint.annotations?.readOnlyHint === true ? ' (read-only)' : ''}; for ${who.length === 0 ? 'admins' : who.join(', ')}${endpoint.approval?.writes === true ? '; writes need approval' : ''}`;
}

/** Runs `switchboard endpoints …`. */
export async function endpoints(argv: readonly string[], logger: Logger): Promise<void> {
  const args = parseCommandArgs(argv, {
    definition: { type: 'string' },
    server: { type: 'string', multiple: true },
    tool: { type: 'string', multiple: true },
    'read-only': { type: 'boolean' },
    user: { type: 'string', multiple: true },
    group: { type: 'string', multiple: true },
    'approve-writes': { type: 'boolean' },
    owner: { type: 'string' },
    url: { type: 'string' },
  });
  const [, action, name] = args.positionals;
  const db = stringFlag(args, 'db');
  const json = booleanFlag(args, 'json');
  const named = (): string => {
    if (name === undefined) throw usageError(`an endpoint name is needed; usage: ${USAGE}`);
    return name;
  };
  switch (action) {
    case 'put': {
      checkPositionals(args, 3, USAGE);
      const raw = stringFlag(args, 'definition');
      const definition = raw !== undefined ? await jsonDefinition(raw) : definitionFromFlags(args);
      const owner = stringFlag(args, 'owner');
      const saved = await withRegistry(db, logger, (registry) => registry.access.putEndpoint(named(), definition, owner));
      return json ? writeJson(saved) : writeResult(`saved endpoint ${summary(saved)}\nserved at /mcp/e/${saved.name}`);
    }
    case 'list': {
      checkPositionals(args, 2, USAGE);
      const [list, everything] = await withRegistry(db, logger, async (registry) => [await registry.access.listEndpoints(), await registry.access.everythingEndpoint()] as const);
      if (json) return writeJson({ everything, endpoints: list });
      return writeResult([`/mcp (every tool): ${everything ? 'on' : 'off for non-admins'}`, ...list.map(summary)].join('\n'));
    }
    case 'show': {
      checkPositionals(args, 3, USAGE);
      const endpoint = await withRegistry(db, logger, (registry) => registry.access.getEndpoint(named()));
      const url = `${(stringFlag(args, 'url') ?? 'http://127.0.0.1:7410').replace(/\/+$/, '')}/mcp/e/${endpoint.name}`;
      const snippets = connectionSnippets(url, `switchboard-${endpoint.name}`);
      if (json) return writeJson({ endpoint, url, snippets });
      return writeResult(
        [summary(endpoint), `URL: ${url}`, '', 'Claude Desktop (claude_desktop_config.json):', JSON.stringify(snippets.claudeDesktop, null, 2), '', 'Cursor (.cursor/mcp.json):', JSON.stringify(snippets.cursor, null, 2), '', 'VS Code (.vscode/mcp.json):', JSON.stringify(snippets.vscode, null, 2)].join('\n'),
      );
    }
    case 'remove': {
      checkPositionals(args, 3, USAGE);
      await withRegistry(db, logger, (registry) => registry.access.removeEndpoint(named()));
      return json ? writeJson({ removed: name }) : writeResult(`removed endpoint ${named()}; its clients are disconnected`);
    }
    case 'everything': {
      checkPositionals(args, 3, USAGE);
      if (name !== 'on' && name !== 'off') throw usageError(`endpoints everything takes on or off; usage: ${USAGE}`);
      await withRegistry(db, logger, (registry) => registry.access.setEverythingEndpoint(name === 'on'));
      return json ? writeJson({ everything: name === 'on' }) : writeResult(name === 'on' ? '/mcp serves every tool again' : '/mcp is off for non-admins: they use their named endpoints');
    }
    default:
      throw unknownActionError(action, USAGE);
  }
}

function definitionFromFlags(args: ReturnType<typeof parseCommandArgs>): Record<string, unknown> {
  const servers = listFlag(args, 'server');
  const tools = listFlag(args, 'tool');
  const users = listFlag(args, 'user');
  const groups = listFlag(args, 'group');
  return {
    ...(servers.length === 0 ? {} : { servers }),
    ...(tools.length === 0 ? {} : { tools }),
    ...(booleanFlag(args, 'read-only') ? { annotations: { readOnlyHint: true } } : {}),
    ...(users.length === 0 && groups.length === 0 ? {} : { access: { ...(users.length === 0 ? {} : { users }), ...(groups.length === 0 ? {} : { groups }) } }),
    ...(booleanFlag(args, 'approve-writes') ? { approval: { writes: true } } : {}),
  };
}

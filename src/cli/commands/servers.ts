/**
 * @module cli/commands/servers
 * `switchboard servers add|list|remove|enable|disable`: servers of a user (`--user U`) or shared ones
 * (`--shared`, admin-defined, visible to every user). Registrations for tenants pass the tenant
 * policy; a refusal exits 1 and names each rule. Secrets are never printed: they show masked.
 */

import type { Logger } from '../../logger.js';
import type { RegisteredServer } from '../../registry/registry-types.js';
import { unknownActionError, usageError } from '../cli-error.js';
import { withRegistry } from '../open-registry.js';
import { style, writeJson, writeResult } from '../output.js';
import { booleanFlag, checkPositionals, listFlag, pairsFlag, parseCommandArgs, stringFlag, type CommandArgs } from '../registry-args.js';

const USAGE =
  'switchboard servers add NAME (--user U | --shared) (--url URL | --path P | --command C [--arg A]… | --template T [--param K=V]…) [--api-key K] [--header "H: V"]… [--env K=V]…\n' +
  '       switchboard servers list (--user U | --shared | --all) [--json]\n' +
  '       switchboard servers remove|enable|disable NAME (--user U | --shared)';

const OPTIONS = {
  user: { type: 'string' },
  shared: { type: 'boolean' },
  all: { type: 'boolean' },
  url: { type: 'string' },
  path: { type: 'string' },
  command: { type: 'string' },
  arg: { type: 'string', multiple: true },
  template: { type: 'string' },
  param: { type: 'string', multiple: true },
  'api-key': { type: 'string' },
  'api-key-env': { type: 'string' },
  header: { type: 'string', multiple: true },
  env: { type: 'string', multiple: true },
  cwd: { type: 'string' },
  transport: { type: 'string' },
  timeout: { type: 'string' },
  'call-timeout': { type: 'string' },
  prefix: { type: 'string' },
  description: { type: 'string' },
  disabled: { type: 'boolean' },
} as const;

/** Runs `switchboard servers …` from the command line. */
export async function servers(argv: readonly string[], logger: Logger): Promise<void> {
  const args = parseCommandArgs(argv, OPTIONS);
  const [, action, name] = args.positionals;
  const db = stringFlag(args, 'db');
  const json = booleanFlag(args, 'json');
  if (action === 'list') {
    checkPositionals(args, 2, USAGE);
    const user = stringFlag(args, 'user');
    const scopes = [user !== undefined, booleanFlag(args, 'shared'), booleanFlag(args, 'all')].filter(Boolean).length;
    if (scopes !== 1) throw usageError(`say whose servers: --user U, --shared or --all; usage: ${USAGE}`);
    const list = await withRegistry(db, logger, (registry) =>
      user !== undefined ? registry.servers.list(user) : booleanFlag(args, 'all') ? registry.servers.listAll() : registry.servers.list(null),
    );
    if (json) writeJson({ servers: list });
    else writeResult(formatServers(list));
    return;
  }
  if (action === undefined || !['add', 'remove', 'enable', 'disable'].includes(action)) {
    throw unknownActionError(action, USAGE);
  }
  // `servers add NAME --command npx -- -y pkg`: words after `--` are the command's arguments.
  if (action !== 'add') checkPositionals(args, 3, USAGE);
  if (name === undefined) throw usageError(`a server name is needed; usage: ${USAGE}`);
  const owner = ownerOf(args);
  const who = owner === null ? 'the shared servers' : `user ${owner}`;
  switch (action) {
    case 'add': {
      const entry = entryOf(args);
      const added = await withRegistry(db, logger, (registry) => registry.servers.add(owner, name, entry, booleanFlag(args, 'disabled') ? { enabled: false } : {}));
      if (json) writeJson(added);
      else writeResult(`added ${added.kind} server ${added.name} to ${who}${added.enabled ? '' : ' (disabled)'}`);
      return;
    }
    case 'remove':
      await withRegistry(db, logger, (registry) => registry.servers.remove(owner, name));
      if (json) writeJson({ removed: name });
      else writeResult(`removed server ${name} from ${who}`);
      return;
    default: {
      const enabled = action === 'enable';
      const changed = await withRegistry(db, logger, (registry) => registry.servers.setEnabled(owner, name, enabled));
      if (json) writeJson(changed);
      else writeResult(`${enabled ? 'enabled' : 'disabled'} server ${name} of ${who}`);
    }
  }
}

function ownerOf(args: CommandArgs): string | null {
  const user = stringFlag(args, 'user');
  const shared = booleanFlag(args, 'shared');
  if (user !== undefined && shared) throw usageError('give either --user or --shared, not both');
  if (user === undefined && !shared) throw usageError(`say whose server it is: --user U, or --shared for one every user gets; usage: ${USAGE}`);
  return user ?? null;
}

/** The config-file entry the flags describe. */
function entryOf(args: CommandArgs): Record<string, unknown> {
  const sources = (['url', 'path', 'command', 'template'] as const).filter((key) => stringFlag(args, key) !== undefined);
  if (sources.length !== 1) {
    throw usageError(`give exactly one of --url, --path, --command or --template${sources.length > 1 ? ` (got ${sources.map((key) => `--${key}`).join(' and ')})` : ''}; usage: ${USAGE}`);
  }
  const entry: Record<string, unknown> = {};
  const source = sources[0] ?? 'url';
  const extraArgs = [...listFlag(args, 'arg'), ...args.positionals.slice(3)];
  if (source === 'template') {
    if (extraArgs.length > 0) throw usageError('a template instance takes --param K=V, not arguments');
    entry.template = stringFlag(args, 'template');
    const parameters = pairsFlag(args, 'param', '=');
    if (Object.keys(parameters).length > 0) entry.parameters = parameters;
  } else {
    entry[source] = stringFlag(args, source);
    if (extraArgs.length > 0) {
      if (source === 'url') throw usageError('--arg (and words after --) apply to --command or --path, not to --url');
      entry.args = extraArgs;
    }
  }
  if (source !== 'template' && listFlag(args, 'param').length > 0) throw usageError('--param applies to --template only');
  const apiKey = stringFlag(args, 'api-key');
  if (apiKey !== undefined) entry.apiKey = apiKey;
  const optional: Array<[flag: string, key: string]> = [
    ['api-key-env', 'apiKeyEnv'],
    ['cwd', 'cwd'],
    ['transport', 'transport'],
    ['timeout', 'timeout'],
    ['call-timeout', 'callTimeout'],
    ['prefix', 'prefix'],
    ['description', 'description'],
  ];
  for (const [flag, key] of optional) {
    const value = stringFlag(args, flag);
    if (value !== undefined) entry[key] = value;
  }
  const headers = pairsFlag(args, 'header', ':');
  if (Object.keys(headers).length > 0) entry.headers = headers;
  const env = pairsFlag(args, 'env', '=');
  if (Object.keys(env).length > 0) entry.env = env;
  return entry;
}

function formatServers(list: readonly RegisteredServer[]): string {
  if (list.length === 0) return 'no servers';
  const nameWidth = Math.max(4, ...list.map((server) => server.name.length));
  const ownerWidth = Math.max(5, ...list.map((server) => (server.owner ?? '(shared)').length));
  const lines = [style.bold(`${'NAME'.padEnd(nameWidth)}  ${'OWNER'.padEnd(ownerWidth)}  KIND      ON   TARGET`, true)];
  for (const server of list) {
    lines.push(`${server.name.padEnd(nameWidth)}  ${(server.owner ?? '(shared)').padEnd(ownerWidth)}  ${server.kind.padEnd(8)}  ${server.enabled ? 'yes' : 'no '}  ${targetOf(server)}`);
    const secrets = secretsOf(server);
    if (secrets !== '') lines.push(style.dim(`${' '.repeat(nameWidth + 2)}${secrets}`, true));
  }
  return lines.join('\n');
}

function targetOf(server: RegisteredServer): string {
  const entry = server.entry;
  if (typeof entry.url === 'string') return entry.url;
  if (typeof entry.path === 'string') return [entry.path, ...(Array.isArray(entry.args) ? entry.args.map(String) : [])].join(' ');
  if (typeof entry.command === 'string') return [entry.command, ...(Array.isArray(entry.args) ? entry.args.map(String) : [])].join(' ');
  if (typeof entry.template === 'string') {
    const parameters = typeof entry.parameters === 'object' && entry.parameters !== null ? Object.entries(entry.parameters).map(([key, value]) => `${key}=${String(value)}`) : [];
    return `template ${entry.template}${parameters.length === 0 ? '' : ` (${parameters.join(', ')})`}`;
  }
  return typeof entry.description === 'string' ? entry.description : '';
}

/** The masked secrets, e.g. `apiKey ••••abcd, header Authorization ••••`. */
function secretsOf(server: RegisteredServer): string {
  const parts: string[] = [];
  if (typeof server.entry.apiKey === 'string') parts.push(`apiKey ${server.entry.apiKey}`);
  for (const key of ['headers', 'env'] as const) {
    const values = server.entry[key];
    if (typeof values === 'object' && values !== null) for (const [name, value] of Object.entries(values)) parts.push(`${key === 'headers' ? 'header' : 'env'} ${name} ${String(value)}`);
  }
  return parts.join(', ');
}

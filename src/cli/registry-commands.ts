/**
 * @module cli/registry-commands
 * The registry commands of the CLI as `main` lists them: `users`, `servers`, the access-control ones
 * (access-commands.ts), `token`, `templates`, `policy`, `keys` — usage, options for --help, examples, and
 * the module that runs each (loaded when it is used). They parse their own flags (registry-args.ts:
 * values stay strings as typed); the options here are for --help only, hence `[value]`, which cac does
 * not check.
 */

import { ACCESS_COMMANDS, type RegistryCommandEntry } from './access-commands.js';

/** Every registry command, in --help order. */
export const REGISTRY_COMMANDS: RegistryCommandEntry[] = [
  {
    usage: 'users <add|list|remove|tool-search> [name] [mode]',
    description: 'Registry users: add NAME [--admin], list, remove NAME, tool-search NAME off|on|auto (what /mcp offers them)',
    options: [['--admin', 'The new user is an administrator (not bound by the tenant policy)'], ['--pinned <names>', 'tool-search: tools offered as themselves besides search_tools and call_tool (comma-separated names or globs)']],
    examples: ['switchboard users add alice', 'switchboard users list --json', 'switchboard users tool-search alice auto --pinned "files__read_*"'],
    load: async () => (await import('./commands/users.js')).users,
  },
  {
    usage: 'servers <add|list|remove|enable|disable> [name]',
    description: 'Servers of a user (--user U) or shared ones (--shared); tenants\' registrations pass the tenant policy',
    options: [
      ['--user [name]', 'Whose server it is'],
      ['--shared', 'A shared server: defined by the operator, every user gets it'],
      ['--all', 'list: every server of every user'],
      ['--url [url]', 'A remote server (Streamable HTTP, falling back to SSE)'],
      ['--path [path]', 'A URL, script, npm package or executable, as in a config file'],
      ['--command [command]', 'A server process (admins only, unless the policy allows it)'],
      ['--arg [value]', 'An argument of --command or --path (repeatable; --arg=-y for values starting with -; or put them after --)'],
      ['--template [name]', 'An instance of an admin template'],
      ['--param [name=value]', 'A template parameter (repeatable)'],
      ['--api-key [key]', 'Sent as Authorization: Bearer (HTTP) or in --api-key-env (stdio); stored encrypted'],
      ['--api-key-env [name]', 'The environment variable a stdio server reads its key from'],
      ['--header [H: V]', 'An HTTP header (repeatable); stored encrypted'],
      ['--env [K=V]', 'An environment variable of the server process (repeatable); stored encrypted'],
      ['--transport [http|sse]', 'Force a transport for --url'],
      ['--timeout [duration]', 'Start-up deadline, e.g. 10 or "20s"'],
      ['--call-timeout [duration]', 'Per-call deadline, e.g. "2m"'],
      ['--prefix [prefix]', 'Prefix of this server\'s tool names when they need one'],
      ['--description [text]', 'What the server is for (shown to tenants for shared servers)'],
      ['--disabled', 'Register it disabled'],
    ],
    examples: [
      'switchboard servers add github --user alice --url https://api.githubcopilot.com/mcp/ --api-key "$TOKEN"',
      'switchboard servers add docs --user alice --template files --param folder=alice',
      'switchboard servers add search --shared --command npx --arg=-y --arg @acme/search-mcp',
      'switchboard servers list --user alice --json',
    ],
    load: async () => (await import('./commands/servers.js')).servers,
  },
  ...ACCESS_COMMANDS,
  {
    usage: 'token <create|list|revoke> [prefix]',
    description: 'API tokens of a user: create (printed once, only a hash is kept), list, revoke PREFIX',
    options: [
      ['--user [name]', 'Whose token'],
      ['--name [label]', 'create: a label, e.g. the program that uses it'],
      ['--expires [lifetime]', 'create: e.g. 30d, 12h (default: no expiry)'],
    ],
    examples: ['switchboard token create --user alice --name laptop', 'switchboard token revoke sb_1a2b3c4d5e6f --user alice'],
    load: async () => (await import('./commands/token.js')).token,
  },
  {
    usage: 'templates <add|list|remove> [name]',
    description: 'Stdio servers an admin defines (fixed command) and tenants instantiate with typed parameters',
    options: [
      ['--command [command]', 'The fixed command'],
      ['--arg [value]', 'An argument, may contain {{parameter}} (repeatable)'],
      ['--env [K=V]', 'An environment variable, may contain {{parameter}} (repeatable); stored encrypted'],
      ['--param [spec]', 'name[?][!][:type[:pattern]]: ? optional, ! secret; type string|number|integer|boolean|enum (values a|b)'],
      ['--description [text]', 'What it is for'],
      ['--definition [json]', 'The whole template as JSON, or @file.json'],
    ],
    examples: ["switchboard templates add files --command npx --arg=-y --arg @modelcontextprotocol/server-filesystem --arg '/srv/{{folder}}' --param 'folder:string:[a-z0-9-]{1,40}'"],
    load: async () => (await import('./commands/templates.js')).templates,
  },
  {
    usage: 'policy <show|set>',
    description: 'The tenant policy, global or one user\'s exceptions (--user U); admins loosen each rule explicitly',
    options: [
      ['--user [name]', 'One user\'s exceptions instead of the global policy'],
      ['--allow-stdio [true|false]', 'Tenants may register server processes'],
      ['--allow-host-env [true|false]', 'Tenant entries may use ${VAR} and inheritEnv'],
      ['--allow-http-host [host]', 'A host tenants may reach over plain http (repeatable; replaces the list)'],
      ['--allow-address [range]', 'A CIDR or a category (loopback, private, link-local, cgnat, metadata, …) tenants may reach (repeatable; replaces the list)'],
      ['--max-servers [n]', 'Servers per tenant'],
      ['--max-concurrent-calls [n]', 'Tool calls per tenant at once'],
      ['--clear', 'With --user: remove the user\'s exceptions'],
    ],
    examples: ['switchboard policy set --allow-http-host intranet.example.com --allow-address 10.20.0.0/16', 'switchboard policy show --user alice'],
    load: async () => (await import('./commands/policy.js')).policy,
  },
  {
    usage: 'oauth-clients <list|add|remove> [id]',
    description: 'OAuth clients the gateway knows without registration: the built-in CLI and dashboard clients, and your own',
    options: [
      ['--redirect-uri [uri]', 'With add: an exact redirect URI (repeatable; https, or http on loopback with any port)'],
      ['--name [text]', 'With add: the name the consent page shows'],
      ['--public-url [url]', 'With list: the gateway\'s public address (the dashboard client redirects there)'],
    ],
    examples: ['switchboard oauth-clients add acme-portal --redirect-uri https://portal.acme.example/oauth/callback --name "Acme portal"', 'switchboard oauth-clients list'],
    load: async () => (await import('./commands/oauth-clients.js')).oauthClients,
  },
  {
    usage: 'keys <rotate>',
    description: 'Re-encrypt every stored secret under a new key (SWITCHBOARD_NEW_SECRET_KEY when the key comes from SWITCHBOARD_SECRET_KEY)',
    options: [],
    examples: ['switchboard keys rotate'],
    load: async () => (await import('./commands/keys.js')).keys,
  },
];

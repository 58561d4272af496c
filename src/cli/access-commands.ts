/**
 * @module cli/access-commands
 * The access-control commands of the CLI (issue 21) as `main` lists them: `groups`, `endpoints`,
 * `rules`, `limits` — usage, options for --help, examples, and the module that runs each.
 */

import type { Logger } from '../logger.js';

/** A registry command: its help, and the module that runs it (loaded when it is used). */
export interface RegistryCommandEntry {
  usage: string;
  description: string;
  options: Array<[string, string]>;
  examples: string[];
  load: () => Promise<(argv: readonly string[], logger: Logger) => Promise<void>>;
}

/** `groups`, `endpoints`, `rules`, `limits`, `approvals`. */
export const ACCESS_COMMANDS: RegistryCommandEntry[] = [
  {
    usage: 'groups <add|list|remove|add-member|remove-member> [name] [user]',
    description: 'Groups of users, named by tool rules, rate limits and endpoint grants',
    options: [
      ['--member [user]', 'add: a member (repeatable)'],
      ['--description [text]', 'add: what the group is'],
    ],
    examples: ['switchboard groups add support --member sam --member lee', 'switchboard groups add-member support kim'],
    load: async () => (await import('./commands/groups.js')).groups,
  },
  {
    usage: 'endpoints <put|list|show|remove|everything> [name|on|off]',
    description: 'Named endpoints at /mcp/e/NAME: a selection of tools, renames, who may use them; `everything off` turns /mcp off for non-admins',
    options: [
      ['--definition [json]', 'put: the whole endpoint as JSON, or @file.json (servers, tools, annotations, renames, descriptions, naming, toolSearch, access, approval)'],
      ['--server [glob]', 'put: servers to take tools from (repeatable)'],
      ['--tool [glob]', 'put: tools to take: name, original name or server/tool (repeatable)'],
      ['--read-only', 'put: only tools with readOnlyHint'],
      ['--user [name]', 'put: a user who may use it (repeatable)'],
      ['--group [name]', 'put: a group whose members may use it (repeatable)'],
      ['--approve-writes', 'put: tools without readOnlyHint wait for an Approve on the dashboard'],
      ['--owner [user]', 'put: a user\'s own endpoint (default: the admins\')'],
      ['--url [base]', 'show: the gateway URL for the connection snippets'],
    ],
    examples: ['switchboard endpoints put support --server kb --server files --tool "kb/search*" --read-only --group support', 'switchboard endpoints show support --url https://mcp.example.com'],
    load: async () => (await import('./commands/endpoints.js')).endpoints,
  },
  {
    usage: 'rules <add|list|remove> [id]',
    description: 'Tool rules: allow or deny tools by name glob, server and annotation, for everyone, an endpoint, a group or a user; deny wins',
    options: [
      ['--allow', 'add: an allow rule (once one applies to a caller, only allowed tools remain)'],
      ['--deny', 'add: a deny rule'],
      ['--scope [scope]', 'add: global (default), endpoint:NAME, group:NAME or user:NAME'],
      ['--tool [glob]', 'add: tool names (repeatable)'],
      ['--server [glob]', 'add: server names (repeatable)'],
      ['--read-only [true|false]', 'add: match on readOnlyHint'],
      ['--destructive [true|false]', 'add: match on destructiveHint'],
      ['--open-world [true|false]', 'add: match on openWorldHint'],
    ],
    examples: ['switchboard rules add --deny --scope group:interns --destructive true', 'switchboard rules add --allow --scope group:support --read-only true'],
    load: async () => (await import('./commands/rules.js')).rules,
  },
  {
    usage: 'limits <add|list|remove> [id]',
    description: 'Rate limits in calls per minute (token buckets), per user, group, endpoint or tool',
    options: [
      ['--per-minute [n]', 'add: calls per minute'],
      ['--scope [scope]', 'add: global (default), endpoint:NAME, group:NAME or user:NAME'],
      ['--tool [glob]', 'add: a bucket per matching tool (repeatable)'],
      ['--per-caller', 'add: a bucket per caller (always so for user:NAME)'],
    ],
    examples: ['switchboard limits add --scope endpoint:support --per-minute 30 --per-caller', 'switchboard limits add --scope global --tool "search_*" --per-minute 600'],
    load: async () => (await import('./commands/limits.js')).limits,
  },
  {
    usage: 'approvals <list|approve|deny> [id]',
    description: 'Calls waiting for a person\'s approval on a running gateway (endpoints with approval for writes), and a decision on one',
    options: [
      ['--url [url]', 'The gateway (default $SWITCHBOARD_URL or http://127.0.0.1:7410)'],
      ['--token [token]', 'An administrator\'s token (default $SWITCHBOARD_TOKEN or .switchboard/token)'],
    ],
    examples: ['switchboard approvals list', 'switchboard approvals approve 3f2a9c'],
    load: async () => (await import('./commands/approvals.js')).approvals,
  },
];

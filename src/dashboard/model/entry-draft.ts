/**
 * @module dashboard/model/entry-draft
 * The server form's model: a config-file entry split into the fields people edit, and back. Secrets
 * are write-only: the gateway shows them masked (`••••abcd`); the form never shows a value, and an
 * untouched secret is sent back masked, which the gateway reads as "keep the stored secret".
 */

import { isRecord } from './is-record.js';

/** The mask prefix the registry shows instead of a secret. */
export const SECRET_MASK = '••••';

/** How the server is reached, as the form offers it; `json` edits the whole entry as JSON. */
export type DraftKind = 'url' | 'stdio' | 'template' | 'json';

/** A name and a value whose stored value (if any) is only known masked. */
export interface SecretRow {
  name: string;
  /** What the person typed; empty keeps the stored value. */
  value: string;
  /** The masked stored value, for a row that came from the gateway. */
  stored?: string;
}

/** Everything the form edits. Strings as typed; {@link entryFromDraft} checks and converts them. */
export interface EntryDraft {
  kind: DraftKind;
  url: string;
  transport: 'auto' | 'http' | 'sse';
  headers: SecretRow[];
  apiKey: SecretRow;
  command: string;
  /** One argument per line. */
  args: string;
  env: SecretRow[];
  cwd: string;
  template: string;
  parameters: SecretRow[];
  timeout: string;
  callTimeout: string;
  prefix: string;
  /** Comma- or line-separated globs. */
  include: string;
  exclude: string;
  /** Keys of the entry the form does not edit, kept as they are. */
  extra: Record<string, unknown>;
  /** The whole entry, for the `json` kind. */
  json: string;
}

/** A problem found before anything is sent; `path` is the entry key, as the gateway would name it. */
export interface DraftIssue {
  path: string;
  message: string;
}

const EDITED_KEYS = new Set(['url', 'transport', 'headers', 'apiKey', 'command', 'args', 'env', 'cwd', 'template', 'parameters', 'timeout', 'callTimeout', 'prefix', 'include', 'exclude', 'enabled']);

/** An empty form of a kind. */
export function emptyDraft(kind: DraftKind = 'url'): EntryDraft {
  return {
    kind,
    url: '',
    transport: 'auto',
    headers: [],
    apiKey: { name: 'apiKey', value: '' },
    command: '',
    args: '',
    env: [],
    cwd: '',
    template: '',
    parameters: [],
    timeout: '',
    callTimeout: '',
    prefix: '',
    include: '',
    exclude: '',
    extra: {},
    json: '{\n  \n}',
  };
}

/** True when a value is the registry's mask of a secret. */
export function isMasked(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(SECRET_MASK);
}

/** The form for an entry as the gateway shows it (secrets masked). */
export function draftFromEntry(entry: Record<string, unknown>): EntryDraft {
  const kind: DraftKind = typeof entry.template === 'string' ? 'template' : typeof entry.command === 'string' ? 'stdio' : typeof entry.url === 'string' ? 'url' : 'json';
  const draft = emptyDraft(kind);
  draft.json = JSON.stringify(entry, null, 2);
  if (kind === 'json') return draft;
  const text = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');
  draft.url = text(entry.url);
  draft.transport = entry.transport === 'http' || entry.transport === 'sse' ? entry.transport : 'auto';
  draft.headers = rowsOf(entry.headers);
  if (typeof entry.apiKey === 'string') draft.apiKey = rowOf('apiKey', entry.apiKey);
  draft.command = text(entry.command);
  draft.args = Array.isArray(entry.args) ? entry.args.map(String).join('\n') : '';
  draft.env = rowsOf(entry.env);
  draft.cwd = text(entry.cwd);
  draft.template = text(entry.template);
  draft.parameters = rowsOf(entry.parameters);
  draft.timeout = text(entry.timeout);
  draft.callTimeout = text(entry.callTimeout);
  draft.prefix = text(entry.prefix);
  draft.include = Array.isArray(entry.include) ? entry.include.join(', ') : '';
  draft.exclude = Array.isArray(entry.exclude) ? entry.exclude.join(', ') : '';
  draft.extra = Object.fromEntries(Object.entries(entry).filter(([key]) => !EDITED_KEYS.has(key)));
  return draft;
}

function rowsOf(value: unknown): SecretRow[] {
  if (!isRecord(value)) return [];
  return Object.entries(value).map(([name, raw]) => rowOf(name, typeof raw === 'string' ? raw : JSON.stringify(raw)));
}

function rowOf(name: string, value: string): SecretRow {
  // A masked value is never put in an input: the person types a new one or leaves it to keep it.
  return isMasked(value) ? { name, value: '', stored: value } : { name, value, stored: value };
}

/** The entry to send, or every problem found in the form. */
export function entryFromDraft(draft: EntryDraft): { entry: Record<string, unknown> } | { issues: DraftIssue[] } {
  if (draft.kind === 'json') return entryFromJson(draft.json);
  const issues: DraftIssue[] = [];
  const entry: Record<string, unknown> = { ...draft.extra };
  if (draft.kind === 'url') {
    const url = draft.url.trim();
    if (url === '') issues.push({ path: 'url', message: 'is required (the server’s MCP endpoint, e.g. https://example.com/mcp)' });
    else if (!/^https?:\/\//i.test(url)) issues.push({ path: 'url', message: 'must start with http:// or https://' });
    entry.url = url;
    if (draft.transport !== 'auto') entry.transport = draft.transport;
    const headers = recordOf(draft.headers, 'headers', issues);
    if (Object.keys(headers).length > 0) entry.headers = headers;
    const apiKey = secretValue(draft.apiKey);
    if (apiKey !== '') entry.apiKey = apiKey;
  } else if (draft.kind === 'stdio') {
    const command = draft.command.trim();
    if (command === '') issues.push({ path: 'command', message: 'is required (the program to run, e.g. npx)' });
    entry.command = command;
    const args = draft.args.split('\n').map((line) => line.trim()).filter((line) => line !== '');
    if (args.length > 0) entry.args = args;
    const env = recordOf(draft.env, 'env', issues);
    if (Object.keys(env).length > 0) entry.env = env;
    if (draft.cwd.trim() !== '') entry.cwd = draft.cwd.trim();
  } else {
    const template = draft.template.trim();
    if (template === '') issues.push({ path: 'template', message: 'is required (the name of a template the admin defined)' });
    entry.template = template;
    const parameters = recordOf(draft.parameters, 'parameters', issues);
    if (Object.keys(parameters).length > 0) entry.parameters = parameters;
  }
  for (const key of ['timeout', 'callTimeout'] as const) {
    const value = draft[key].trim();
    if (value === '') continue;
    entry[key] = /^\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  }
  if (draft.prefix.trim() !== '') entry.prefix = draft.prefix.trim();
  for (const key of ['include', 'exclude'] as const) {
    const globs = draft[key].split(/[,\n]/).map((glob) => glob.trim()).filter((glob) => glob !== '');
    if (globs.length > 0) entry[key] = globs;
  }
  return issues.length > 0 ? { issues } : { entry };
}

function entryFromJson(text: string): { entry: Record<string, unknown> } | { issues: DraftIssue[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { issues: [{ path: '', message: `the entry is not valid JSON (${error instanceof SyntaxError ? error.message : 'parse error'})` }] };
  }
  if (!isRecord(parsed)) return { issues: [{ path: '', message: 'the entry must be a JSON object, as in a config file: { "url": … } or { "command": … }' }] };
  return { entry: parsed };
}

/** The typed value, else the stored (masked) one, which tells the gateway to keep the secret. */
function secretValue(row: SecretRow): string {
  return row.value !== '' ? row.value : (row.stored ?? '');
}

function recordOf(rows: readonly SecretRow[], path: string, issues: DraftIssue[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (const row of rows) {
    const name = row.name.trim();
    const value = secretValue(row);
    if (name === '' && value === '') continue;
    if (name === '') {
      issues.push({ path, message: 'every value needs a name' });
      continue;
    }
    if (name in record) issues.push({ path: `${path}.${name}`, message: 'is given twice' });
    record[name] = value;
  }
  return record;
}

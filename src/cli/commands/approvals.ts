/**
 * @module cli/commands/approvals
 * `switchboard approvals list [--json] | approve ID | deny ID`: the calls waiting for a person's
 * approval on a running gateway, and a decision on one. Waiting calls are held by the gateway that
 * runs them (not in the registry), so this asks that gateway over its REST API (`/api/approvals`)
 * with an administrator's token, like `switchboard stats` does.
 */

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Logger } from '../../logger.js';
import { CliExit, ExitCode, usageError } from '../cli-error.js';
import { writeJson, writeResult } from '../output.js';
import { booleanFlag, checkPositionals, parseCommandArgs, stringFlag } from '../registry-args.js';
import { DEFAULT_GATEWAY_URL } from './stats.js';

const USAGE = 'switchboard approvals list [--json] | approvals approve ID | approvals deny ID  [--url URL] [--token TOKEN]';

interface WaitingCall {
  id: string;
  user: string;
  endpoint: string;
  tool: string;
  server: string;
  arguments: Record<string, unknown>;
  createdAt: string;
}

/** Runs `switchboard approvals …`. */
export async function approvals(argv: readonly string[], _logger: Logger): Promise<void> {
  const args = parseCommandArgs(argv, { url: { type: 'string' }, token: { type: 'string' } });
  const [, action, id] = args.positionals;
  const base = stringFlag(args, 'url') ?? process.env.SWITCHBOARD_URL ?? DEFAULT_GATEWAY_URL;
  const token = stringFlag(args, 'token') ?? process.env.SWITCHBOARD_TOKEN ?? (await readTokenFile());
  switch (action) {
    case 'list': {
      checkPositionals(args, 2, USAGE);
      const { approvals: waiting } = (await request(base, token, '/api/approvals')) as { approvals: WaitingCall[] };
      if (booleanFlag(args, 'json')) return writeJson(waiting);
      writeResult(waiting.length === 0 ? 'no calls are waiting for approval' : waiting.map((call) => `${call.id}  ${call.user} on ${call.endpoint}: ${call.tool} (server ${call.server}) ${truncate(JSON.stringify(call.arguments))}`).join('\n'));
      return;
    }
    case 'approve':
    case 'deny': {
      checkPositionals(args, 3, USAGE);
      if (id === undefined) throw usageError(`name the waiting call (its id from \`switchboard approvals list\`); usage: ${USAGE}`);
      await request(base, token, `/api/approvals/${encodeURIComponent(id)}`, { approve: action === 'approve' });
      writeResult(`${action === 'approve' ? 'approved' : 'denied'} ${id}`);
      return;
    }
    default:
      throw usageError(`usage: ${USAGE}`);
  }
}

function truncate(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

async function request(base: string, token: string | undefined, path: string, body?: unknown): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(new URL(path, base), {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new CliExit(ExitCode.Failed, `no gateway answers at ${base}; pass --url or set SWITCHBOARD_URL`);
  }
  if (response.status === 401 || response.status === 403) throw new CliExit(ExitCode.Failed, `the gateway at ${base} refused the token (HTTP ${response.status}): approvals need an administrator's token (--token or SWITCHBOARD_TOKEN)`);
  const answer = (await response.json().catch(() => ({}))) as { error?: { message?: string; hint?: string } };
  if (!response.ok) throw new CliExit(ExitCode.Failed, `${answer.error?.message ?? `the gateway at ${base} answered HTTP ${response.status}`}${answer.error?.hint === undefined ? '' : ` (${answer.error.hint})`}`);
  return answer;
}

async function readTokenFile(): Promise<string | undefined> {
  try {
    return (await readFile(resolve('.switchboard/token'), 'utf8')).trim();
  } catch {
    return undefined;
  }
}

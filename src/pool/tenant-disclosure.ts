/**
 * @module pool/tenant-disclosure
 * What a tenant may learn about servers they do not own: shared servers (the admin's URL, command
 * line, env) and their own template instances (whose command line and env are the admin's). Errors
 * about those keep their code, server and reason, but lose URL credentials, query secrets,
 * arguments, environment values and stderr (the hint that prints the command line, too); their
 * stderr lines are not forwarded. Administrators, and tenants about their own plain entries, see
 * everything (issue 14, finding 4).
 */

import type { ServerStatus } from '../client/multi-server-client.js';
import { secretValuesOf, type ServerSpec } from '../config/server-spec.js';
import { SwitchboardError, isSwitchboardError } from '../errors.js';
import { REDACTED, redactUrlsInText } from '../util/redact-urls.js';
import type { UserServerConfig } from '../registry/registry-types.js';

/** The hint a tenant gets instead of one that would show a hidden part. */
export const ADMIN_DETAIL_HINT = 'an administrator runs this server and can see the details';
/** Detail fields that carry nothing of a server's configuration or output. */
const SAFE_DETAILS = new Set(['reason', 'exitCode', 'signal', 'status', 'retryable', 'transport', 'timeoutMs', 'tool', 'rpcCode']);
/** Shorter parts are not scrubbed out of messages: they would garble words and carry little. */
const MIN_SCRUBBED_LENGTH = 4;
/** An argument that is a plain word or option (`serve`, `--stdio`): no secret, and often a tool's name too. */
const PLAIN_WORD = /^-{0,2}[A-Za-z]+(?:-[A-Za-z]+)*$/;

/** How errors and logs of one user's servers are shown to that user. */
export class TenantDisclosure {
  readonly #hidden: Map<string, string[]>;

  private constructor(hidden: Map<string, string[]>) {
    this.#hidden = hidden;
  }

  /** The disclosure of `config`'s user: nothing hidden from an administrator. */
  static of(config: UserServerConfig): TenantDisclosure {
    const hidden = new Map<string, string[]>();
    if (!config.user.isAdmin) {
      for (const spec of config.config.servers) {
        const owned = config.tenantServers.has(spec.name) && config.templateServers?.has(spec.name) !== true;
        if (!owned) hidden.set(spec.name, hiddenTextsOf(spec));
      }
    }
    return new TenantDisclosure(hidden);
  }

  /** True when the user may not see how `server` is configured. */
  hides(server: string | undefined): boolean {
    return server !== undefined && this.#hidden.has(server);
  }

  /** `error` as the user may see it (itself when nothing is hidden); `about` when it concerns a server it does not name. */
  error<T>(error: T, about?: string): T | SwitchboardError {
    if (!isSwitchboardError(error)) return error;
    const server = about ?? error.server;
    if (!this.hides(server)) return error;
    const scrub = this.#scrubber(server);
    const hint = error.hint === undefined || scrub(error.hint) !== error.hint ? ADMIN_DETAIL_HINT : error.hint;
    const details = Object.fromEntries(Object.entries(error.details).filter(([key]) => SAFE_DETAILS.has(key)));
    return new SwitchboardError(error.code, scrub(withoutStderr(error.message)), { ...(server === undefined ? {} : { server }), hint, details });
  }

  /** Statuses with the errors of hidden servers redacted and their stderr left out. */
  status(statuses: readonly ServerStatus[]): ServerStatus[] {
    return statuses.map((status) => {
      if (status.error === undefined || !this.hides(status.name)) return status;
      const scrub = this.#scrubber(status.name);
      const { stderr: _stderr, ...error } = status.error;
      const hint = error.hint === undefined || scrub(error.hint) !== error.hint ? ADMIN_DETAIL_HINT : error.hint;
      return { ...status, error: { code: error.code, message: scrub(withoutStderr(error.message)), hint } };
    });
  }

  /** True when a `server-log` line may reach the user (a hidden server's stderr may not). */
  showsLog(event: { server: string; source: 'mcp' | 'stderr' }): boolean {
    return event.source !== 'stderr' || !this.hides(event.server);
  }

  #scrubber(server: string | undefined): (text: string) => string {
    const texts = server === undefined ? [] : (this.#hidden.get(server) ?? []);
    return (text) => texts.reduce((result, secret) => result.split(secret).join(REDACTED), redactUrlsInText(text));
  }
}

/** The message without the stderr a start-up error appends (`…; stderr:\n    lines`). */
function withoutStderr(message: string): string {
  const at = message.indexOf('; stderr:');
  return at === -1 ? message : message.slice(0, at);
}

/** Every text of a spec a tenant must not read, longest first (so a part never hides a longer one). */
function hiddenTextsOf(spec: ServerSpec): string[] {
  const texts = [...secretValuesOf(spec)];
  if (spec.type === 'stdio') {
    const args = spec.args.filter((arg) => !PLAIN_WORD.test(arg));
    // `--token=VALUE`: the value on its own too. The program on its own unless a plain word (`npx`, `node`):
    // a path names where things are on the gateway host ("command not found: /opt/…").
    texts.push([spec.command, ...spec.args].join(' '), ...args, ...args.flatMap((arg) => (arg.includes('=') ? [arg.slice(arg.indexOf('=') + 1)] : [])));
    if (!PLAIN_WORD.test(spec.command)) texts.push(spec.command);
    if (spec.cwd !== undefined) texts.push(spec.cwd);
  } else {
    texts.push(spec.url);
    try {
      const url = new URL(spec.url);
      texts.push(url.username, url.password, decodeURIComponent(url.username), decodeURIComponent(url.password), ...url.searchParams.values());
    } catch {
      // A URL that does not parse was refused long before; nothing more to take out.
    }
  }
  return [...new Set(texts.filter((text) => text.length >= MIN_SCRUBBED_LENGTH))].sort((a, b) => b.length - a.length);
}

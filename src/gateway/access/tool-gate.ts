/**
 * @module gateway/access/tool-gate
 * The access check of one caller on one endpoint (`/mcp` when none): what `tools/list` shows (the
 * endpoint's selection, renames and overrides, then the tool rules) and whether a call may go ahead
 * (the same list, then the rate limits, then a human's approval where the endpoint asks for one).
 * Every refusal of a tool the caller may not see — unknown, denied by a rule, outside the endpoint,
 * an old name — is the same error, so a refusal never tells whether a tool exists. Each decision
 * that a rule, limit or approval made is written to the audit log with that rule.
 */

import type { CatalogTool } from '../../client/multi-server-client.js';
import type { ToolSearchMode } from '../../client/search/tool-search-mode.js';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { describeRule, effectiveAnnotations, evaluateToolPolicy, rulesFor, scopeApplies, serverGlobMatches, toolGlobMatches, type AuditRecord, type EndpointRecord, type PolicyCaller, type RateLimit, type RegistryUser } from '../../registry/index.js';
import type { UserClient } from '../../registry/index.js';
import type { AccessSnapshot, AccessState } from './access-state.js';
import { endpointTools, type ExposedTool } from './endpoint-tools.js';
import type { PendingApprovals } from './pending-approvals.js';
import type { BucketRequest, RateBucketStore } from './rate-buckets.js';

/** How long a call waits for approval when the endpoint does not say. @default 120 s */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 120_000;

/** Asks the caller's own client (an MCP elicitation) whether a call may run; true when accepted. */
export type AskClient = (message: string, signal: AbortSignal | undefined) => Promise<boolean>;

/** Options of {@link ToolGate.authorize}. */
export interface AuthorizeOptions {
  signal?: AbortSignal | undefined;
  /** Set when the caller's client can answer an elicitation (2025-era clients that declared it). */
  askClient?: AskClient | undefined;
}

/** What every gate shares. */
export interface ToolGateContext {
  state: AccessState;
  buckets: RateBucketStore;
  /** The clock of the rate limits (injected in tests). */
  now: () => number;
  approvals: PendingApprovals;
  /** Writes one audit entry (never throws; failures are logged). */
  audit: (entry: AuditRecord) => void;
  logger: Logger;
  /** The gateway's tool-search mode for users without their own setting (`serve --tool-search`). */
  toolSearchDefault?: ToolSearchMode | undefined;
}

/**
 * May `user` use `endpoint`? Admins always. A user's own endpoint only its owner, and only while `/mcp`
 * is on for them (`everythingOn`): with it off, the administrator's endpoints — their selection and
 * approvals — are the way in, and an endpoint of one's own over the whole catalog would undo that. An
 * administrator's endpoint the users and groups it names.
 */
export function mayUseEndpoint(endpoint: EndpointRecord, user: RegistryUser, groups: readonly string[], everythingOn: boolean): boolean {
  if (user.isAdmin) return true;
  if (endpoint.ownerId !== undefined) return endpoint.ownerId === user.id && everythingOn;
  if (endpoint.access?.users?.includes(user.name) === true) return true;
  return endpoint.access?.groups?.some((group) => groups.includes(group)) === true;
}

/** The one refusal of a tool the caller may not call (whether or not it exists). */
export function unavailableTool(name: string): SwitchboardError {
  return new SwitchboardError(ErrorCode.ToolNotFound, `tool "${name.slice(0, 200)}" is not available`, { hint: 'list the tools to see which ones you can call' });
}

/** The gate of one caller on one endpoint. */
export class ToolGate {
  readonly #context: ToolGateContext;
  readonly #user: RegistryUser;
  readonly #endpoint: string | undefined;
  #cache: { client: UserClient; catalogVersion: number; accessVersion: number; tools: Map<string, ExposedTool> } | undefined;
  /** {@link toolSearch} on `/mcp` (no endpoint): the same every time, so built once. */
  readonly #plainSearch: { endpoint: undefined; fallback: ToolSearchMode | undefined };
  #unrestricted: { snapshot: AccessSnapshot; value: boolean } | undefined;

  constructor(context: ToolGateContext, user: RegistryUser, endpoint: string | undefined) {
    this.#context = context;
    this.#user = user;
    this.#endpoint = endpoint;
    this.#plainSearch = { endpoint: undefined, fallback: context.toolSearchDefault };
  }

  /** The endpoint's name (undefined: `/mcp`). */
  get endpoint(): string | undefined {
    return this.#endpoint;
  }

  /**
   * True on `/mcp` when no rule and no rate limit concerns this caller: every catalog tool goes through
   * unchanged, so a path that skips {@link authorize} (the gateway's fast path) decides the same.
   */
  get unrestricted(): boolean {
    if (this.#endpoint !== undefined) return false;
    const snapshot = this.#context.state.current;
    // Asked on every fast-path request: decided once per access snapshot (it changes with any rule or limit).
    if (this.#unrestricted?.snapshot !== snapshot) {
      const caller = this.#caller(snapshot);
      this.#unrestricted = { snapshot, value: rulesFor(snapshot.rules, caller).length === 0 && !snapshot.limits.some((limit) => scopeApplies(limit.scope, caller)) };
    }
    return this.#unrestricted.value;
  }

  /** The tool-search modes that apply here: the endpoint's own (none on `/mcp`), and the gateway's default. */
  get toolSearch(): { endpoint: ToolSearchMode | undefined; fallback: ToolSearchMode | undefined } {
    if (this.#endpoint === undefined) return this.#plainSearch;
    return { endpoint: this.#context.state.current.endpoints.get(this.#endpoint)?.toolSearch, fallback: this.#context.toolSearchDefault };
  }

  /** Moves whenever the access configuration does (with the catalog's version, when {@link list} may change). */
  get accessVersion(): number {
    return this.#context.state.current.version;
  }

  /** The tools this caller may call here, as listed. */
  list(client: UserClient): CatalogTool[] {
    return [...this.#visible(client).values()].map((exposed) => exposed.tool);
  }

  /**
   * Which servers' prompts and resources this endpoint shows: undefined on `/mcp` (every server's); on a
   * named endpoint, those its `servers` names, else those of the tools it lists to this caller — none
   * when the caller may not use it. (Tool rules judge tools only.)
   */
  servesPromptsOf(client: UserClient): ((server: string) => boolean) | undefined {
    if (this.#endpoint === undefined) return undefined;
    const snapshot = this.#context.state.current;
    const endpoint = snapshot.endpoints.get(this.#endpoint);
    if (endpoint === undefined || !mayUseEndpoint(endpoint, this.#user, snapshot.groups.get(this.#user.id) ?? [], snapshot.everythingEndpoint)) return () => false;
    const servers = endpoint.servers;
    if (servers !== undefined) return (server) => serverGlobMatches(servers, server);
    const listed = new Set([...this.#visible(client).values()].map((exposed) => exposed.upstream.server));
    return (server) => listed.has(server);
  }

  /**
   * Checks a call of `name` (as listed) and returns the catalog tool it goes to; throws the
   * refusal. Undefined on `/mcp` when no rule concerns the caller and the name is not in the
   * catalog: the client's own refusal (which says why) stands.
   */
  async authorize(client: UserClient, name: string, args: Record<string, unknown>, options: AuthorizeOptions = {}): Promise<CatalogTool | undefined> {
    const snapshot = this.#context.state.current;
    const exposed = this.#visible(client).get(name);
    const caller = this.#caller(snapshot);
    if (exposed === undefined) {
      if (this.#endpoint === undefined && rulesFor(snapshot.rules, caller).length === 0) {
        // Not a listed name, but maybe one the client still routes (the prefixed form, an earlier name):
        // the same tool, so the same rate limits. Otherwise the client's own refusal (which says why) stands.
        const routed = client.getTool(name);
        if (routed !== undefined) await this.#takeTokens(snapshot, caller, { tool: routed, upstream: routed }, routed);
        return undefined;
      }
      const upstream = client.getTool(name);
      const decision = upstream === undefined ? undefined : evaluateToolPolicy(snapshot.rules, caller, upstream);
      this.#audit({ tool: name, ...(upstream === undefined ? {} : { server: upstream.server }), decision: 'deny', errorCode: ErrorCode.ToolNotFound, rule: decision?.rule === undefined ? (decision === undefined ? 'not listed' : decision.reason) : describeRule(decision.rule) });
      throw unavailableTool(name);
    }
    const { tool, upstream } = exposed;
    const endpoint = this.#endpoint === undefined ? undefined : snapshot.endpoints.get(this.#endpoint);
    const judged = policyTool(exposed, endpoint);
    const decision = evaluateToolPolicy(snapshot.rules, caller, judged);
    if (decision.rule !== undefined) this.#audit({ tool: tool.name, server: upstream.server, decision: 'allow', rule: describeRule(decision.rule) });
    await this.#takeTokens(snapshot, caller, exposed, judged);
    if (endpoint?.approval?.writes === true && !effectiveAnnotations(upstream).readOnlyHint) await this.#approve(endpoint, exposed, args, options);
    return upstream;
  }

  #caller(snapshot: AccessSnapshot): PolicyCaller {
    return { userName: this.#user.name, groups: snapshot.groups.get(this.#user.id) ?? [], endpoint: this.#endpoint };
  }

  #visible(client: UserClient): Map<string, ExposedTool> {
    const snapshot = this.#context.state.current;
    const cached = this.#cache;
    if (cached !== undefined && cached.client === client && cached.catalogVersion === client.catalogVersion && cached.accessVersion === snapshot.version) return cached.tools;
    const caller = this.#caller(snapshot);
    let tools: Map<string, ExposedTool>;
    const endpoint = this.#endpoint === undefined ? undefined : snapshot.endpoints.get(this.#endpoint);
    if (this.#endpoint !== undefined && (endpoint === undefined || !mayUseEndpoint(endpoint, this.#user, caller.groups, snapshot.everythingEndpoint))) tools = new Map();
    else tools = endpointTools(endpoint, client.listTools());
    if (rulesFor(snapshot.rules, caller).length > 0) {
      for (const [name, exposed] of tools) if (!evaluateToolPolicy(snapshot.rules, caller, policyTool(exposed, endpoint)).allowed) tools.delete(name);
    }
    this.#cache = { client, catalogVersion: client.catalogVersion, accessVersion: snapshot.version, tools };
    return tools;
  }

  /** Takes a token of each rate limit on `judged` (the tool as the limits see it, see {@link policyTool}); throws the refusal. */
  async #takeTokens(snapshot: AccessSnapshot, caller: PolicyCaller, exposed: ExposedTool, judged: CatalogTool): Promise<void> {
    const limits = snapshot.limits.filter((limit) => scopeApplies(limit.scope, caller) && toolGlobMatches(limit.tools, judged));
    if (limits.length === 0) return;
    const requests: BucketRequest[] = limits.map((limit) => ({ key: bucketKey(limit, this.#user, exposed.upstream), perMinute: limit.perMinute }));
    const answer = await this.#context.buckets.take(requests, this.#context.now());
    if (answer.ok) return;
    const limit = limits[requests.findIndex((request) => request.key === answer.key)] ?? limits[0];
    if (limit === undefined) return;
    const seconds = Math.max(1, Math.ceil(answer.retryAfterMs / 1000));
    const what = describeLimit(limit);
    this.#audit({ tool: exposed.tool.name, server: exposed.upstream.server, decision: 'rate-limited', errorCode: ErrorCode.LimitExceeded, rule: `${limit.id}: ${what}` });
    throw new SwitchboardError(ErrorCode.LimitExceeded, `rate limit reached for "${exposed.tool.name}": ${what}; retry in ${seconds} s`, {
      hint: `wait ${seconds} seconds before calling it again`,
      details: { retryAfterMs: answer.retryAfterMs, limit: limit.id, retryable: true },
    });
  }

  async #approve(endpoint: EndpointRecord, exposed: ExposedTool, args: Record<string, unknown>, options: AuthorizeOptions): Promise<void> {
    const signal = options.signal;
    const timeoutMs = (endpoint.approval?.timeoutSeconds ?? DEFAULT_APPROVAL_TIMEOUT_MS / 1000) * 1000;
    if (endpoint.approval?.ask === 'client' && options.askClient !== undefined) return this.#askClient(endpoint, exposed, args, options.askClient, timeoutMs, signal);
    const outcome = await this.#context.approvals.wait({ user: this.#user.name, endpoint: endpoint.name, tool: exposed.tool.name, server: exposed.upstream.server, arguments: args }, timeoutMs, signal);
    const rule = `endpoint ${endpoint.name}: approval for writes`;
    if (outcome.decision === 'approved') {
      this.#audit({ tool: exposed.tool.name, server: exposed.upstream.server, decision: 'approved', rule: `${rule} (by ${outcome.by})` });
      return;
    }
    if (outcome.decision === 'cancelled') throw new SwitchboardError(ErrorCode.RequestCancelled, `the call of "${exposed.tool.name}" was cancelled while it waited for approval`);
    this.#audit({ tool: exposed.tool.name, server: exposed.upstream.server, decision: 'rejected', errorCode: ErrorCode.Forbidden, rule: `${rule} (${outcome.decision === 'denied' ? `denied by ${outcome.by}` : 'timed out'})` });
    throw new SwitchboardError(
      ErrorCode.Forbidden,
      outcome.decision === 'denied'
        ? `the call of "${exposed.tool.name}" was denied by a person reviewing it; do not retry it unchanged`
        : `nobody approved the call of "${exposed.tool.name}" within ${timeoutMs < 1_000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}, so it did not run`,
      { hint: 'this endpoint needs a human approval for tools that may write' },
    );
  }

  /** The caller's client decides (an elicitation; no answer within the timeout refuses). */
  async #askClient(endpoint: EndpointRecord, exposed: ExposedTool, args: Record<string, unknown>, ask: AskClient, timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
    const rule = `endpoint ${endpoint.name}: approval for writes (asked the client)`;
    const argumentsText = JSON.stringify(args);
    const message = `Allow "${exposed.tool.name}" (server ${exposed.upstream.server}) to run with ${argumentsText.length > 2_000 ? `${argumentsText.slice(0, 2_000)}…` : argumentsText}? It may change data.`;
    let accepted = false;
    try {
      accepted = await ask(message, AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(signal === undefined ? [] : [signal])]));
    } catch (error) {
      if (signal?.aborted === true) throw new SwitchboardError(ErrorCode.RequestCancelled, `the call of "${exposed.tool.name}" was cancelled while it waited for approval`);
      this.#context.logger.debug('asking the client for approval failed', { error: String(error) });
    }
    if (accepted) {
      this.#audit({ tool: exposed.tool.name, server: exposed.upstream.server, decision: 'approved', rule: `${rule} (by the caller)` });
      return;
    }
    this.#audit({ tool: exposed.tool.name, server: exposed.upstream.server, decision: 'rejected', errorCode: ErrorCode.Forbidden, rule: `${rule} (declined)` });
    throw new SwitchboardError(ErrorCode.Forbidden, `the call of "${exposed.tool.name}" was not approved by the user, so it did not run; do not retry it unchanged`, { hint: 'this endpoint asks before running tools that may write' });
  }

  #audit(entry: Pick<AuditRecord, 'tool' | 'server' | 'decision' | 'rule' | 'errorCode'>): void {
    this.#context.audit({ userId: this.#user.id, userName: this.#user.name, ok: entry.errorCode === undefined, durationMs: 0, ...(this.#endpoint === undefined ? {} : { endpoint: this.#endpoint }), ...entry });
  }
}

/**
 * The tool as rules and rate limits judge it: on a user's own endpoint the catalog tool (its `/mcp`
 * name), since the name there is the user's choice — renamed to an allowed name, a tool must not pass
 * an allow-list; on an administrator's endpoint the listed tool, whose names the administrator chose.
 */
function policyTool(exposed: ExposedTool, endpoint: EndpointRecord | undefined): CatalogTool {
  return endpoint?.ownerId === undefined ? exposed.tool : exposed.upstream;
}

function bucketKey(limit: RateLimit, user: RegistryUser, upstream: CatalogTool): string {
  const perCaller = limit.scope.kind === 'user' || limit.perCaller === true;
  return `${limit.id}|${perCaller ? user.id : '*'}|${limit.tools === undefined ? '*' : `${upstream.server}/${upstream.originalName}`}`;
}

/** A limit in words, for the model and the audit log. */
export function describeLimit(limit: RateLimit): string {
  const scope = limit.scope.kind === 'global' ? 'everyone' : `${limit.scope.kind} ${limit.scope.name}`;
  const per = limit.scope.kind === 'user' || limit.perCaller === true ? ' per caller' : '';
  return `${limit.perMinute} calls per minute${limit.tools === undefined ? '' : ` per tool (${limit.tools.join(', ')})`}${per} for ${scope}`;
}

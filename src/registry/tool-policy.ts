/**
 * @module registry/tool-policy
 * The tool-policy evaluator: pure functions over a caller, a tool and the rules in force. Used at
 * list time (a tool the caller may not call is not listed) and again at call time. Deny wins; once
 * any allow rule applies to the caller, a tool must match one of them.
 */

import { globToRegExp } from '../client/catalog/glob.js';
import type { AccessScope, AnnotationFilter, ToolRule } from './access-types.js';

/** The parts of a tool a rule can test. */
export interface PolicyTool {
  /** The name the caller sees on `/mcp`. */
  name: string;
  server: string;
  originalName: string;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; openWorldHint?: boolean } | undefined;
}

/** Who is asking, and where. */
export interface PolicyCaller {
  userName: string;
  groups: readonly string[];
  /** The named endpoint of the request; undefined on `/mcp` and the REST API without one. */
  endpoint?: string | undefined;
}

/** A decision, with the rule that made it (none when no rule applied, or no allow rule matched). */
export interface PolicyDecision {
  allowed: boolean;
  reason: 'denied-by-rule' | 'allowed-by-rule' | 'not-allowed-by-any-rule' | 'no-rules';
  rule?: ToolRule;
}

/** True when `scope` covers `caller`. */
export function scopeApplies(scope: AccessScope, caller: PolicyCaller): boolean {
  switch (scope.kind) {
    case 'global':
      return true;
    case 'endpoint':
      return caller.endpoint === scope.name;
    case 'group':
      return caller.groups.includes(scope.name);
    case 'user':
      return caller.userName === scope.name;
  }
}

/** The annotations with the MCP defaults applied: not read-only, destructive unless read-only, open-world. */
export function effectiveAnnotations(tool: Pick<PolicyTool, 'annotations'>): Required<AnnotationFilter> {
  const readOnlyHint = tool.annotations?.readOnlyHint ?? false;
  return {
    readOnlyHint,
    destructiveHint: readOnlyHint ? false : (tool.annotations?.destructiveHint ?? true),
    openWorldHint: tool.annotations?.openWorldHint ?? true,
  };
}

/** True when every given annotation test passes. */
export function annotationsPass(filter: AnnotationFilter | undefined, tool: Pick<PolicyTool, 'annotations'>): boolean {
  if (filter === undefined) return true;
  const effective = effectiveAnnotations(tool);
  return (Object.keys(filter) as Array<keyof AnnotationFilter>).every((key) => filter[key] === undefined || filter[key] === effective[key]);
}

const regexCache = new Map<string, RegExp>();
function matches(pattern: string, value: string): boolean {
  let regex = regexCache.get(pattern);
  if (regex === undefined) {
    regex = globToRegExp(pattern);
    if (regexCache.size > 10_000) regexCache.clear();
    regexCache.set(pattern, regex);
  }
  return regex.test(value);
}

/** True when a tool glob names `tool`: by its listed name, its original name, or `server/original`. */
export function toolGlobMatches(patterns: readonly string[] | undefined, tool: Pick<PolicyTool, 'name' | 'server' | 'originalName'>): boolean {
  if (patterns === undefined) return true;
  const qualified = `${tool.server}/${tool.originalName}`;
  return patterns.some((pattern) => (pattern.includes('/') ? matches(pattern, qualified) : matches(pattern, tool.name) || matches(pattern, tool.originalName)));
}

/** True when a server glob names `server`. */
export function serverGlobMatches(patterns: readonly string[] | undefined, server: string): boolean {
  return patterns === undefined || patterns.some((pattern) => matches(pattern, server));
}

/** True when every test of `rule` passes for `tool`. */
export function ruleMatches(rule: Pick<ToolRule, 'tools' | 'servers' | 'annotations'>, tool: PolicyTool): boolean {
  return serverGlobMatches(rule.servers, tool.server) && toolGlobMatches(rule.tools, tool) && annotationsPass(rule.annotations, tool);
}

/** The rules whose scope covers `caller`. */
export function rulesFor(rules: readonly ToolRule[], caller: PolicyCaller): ToolRule[] {
  return rules.filter((rule) => scopeApplies(rule.scope, caller));
}

/**
 * Whether `caller` may call `tool` under `rules` (all rules; those out of scope are skipped). The
 * first matching deny decides; otherwise the first matching allow; otherwise allowed only when no
 * allow rule applies to the caller at all.
 */
export function evaluateToolPolicy(rules: readonly ToolRule[], caller: PolicyCaller, tool: PolicyTool): PolicyDecision {
  let sawAllow = false;
  let allowedBy: ToolRule | undefined;
  for (const rule of rules) {
    if (!scopeApplies(rule.scope, caller)) continue;
    if (rule.effect === 'allow') sawAllow = true;
    if (!ruleMatches(rule, tool)) continue;
    if (rule.effect === 'deny') return { allowed: false, reason: 'denied-by-rule', rule };
    allowedBy ??= rule;
  }
  if (allowedBy !== undefined) return { allowed: true, reason: 'allowed-by-rule', rule: allowedBy };
  return sawAllow ? { allowed: false, reason: 'not-allowed-by-any-rule' } : { allowed: true, reason: 'no-rules' };
}

/** A rule in one line, for the audit log and the CLI. */
export function describeRule(rule: Pick<ToolRule, 'id' | 'effect' | 'scope' | 'tools' | 'servers' | 'annotations'>): string {
  const scope = rule.scope.kind === 'global' ? 'everyone' : `${rule.scope.kind} ${rule.scope.name}`;
  const tests = [
    ...(rule.servers === undefined ? [] : [`servers ${rule.servers.join(',')}`]),
    ...(rule.tools === undefined ? [] : [`tools ${rule.tools.join(',')}`]),
    ...(rule.annotations === undefined ? [] : Object.entries(rule.annotations).map(([key, value]) => `${key}=${String(value)}`)),
  ];
  return `${rule.id}: ${rule.effect} ${tests.length === 0 ? 'all tools' : tests.join(' ')} for ${scope}`;
}

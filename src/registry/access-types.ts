/**
 * @module registry/access-types
 * Who may use which tools: tool rules, named endpoints and rate limits, as stored (JSON definitions)
 * and validated at the edges (API, CLI) with the schemas here. Pure data; the evaluator is
 * {@link evaluateToolPolicy}, the stores are {@link AccessStore} and {@link GroupStore}.
 */

import { z } from 'zod';
import { ConfigError, type ConfigIssue } from '../errors.js';

/** The MCP tool annotations a rule or a selection can test (each with the spec's default applied). */
export const annotationFilterSchema = z
  .object({
    readOnlyHint: z.boolean().optional(),
    destructiveHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  })
  .strict();
export type AnnotationFilter = z.infer<typeof annotationFilterSchema>;

/** Whom a rule or a limit applies to: everyone, callers on one endpoint, members of a group, one user. */
export const accessScopeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('global') }).strict(),
  z.object({ kind: z.literal('endpoint'), name: z.string().min(1) }).strict(),
  z.object({ kind: z.literal('group'), name: z.string().min(1) }).strict(),
  z.object({ kind: z.literal('user'), name: z.string().min(1) }).strict(),
]);
export type AccessScope = z.infer<typeof accessScopeSchema>;

/**
 * A tool rule: within its scope, `allow` or `deny` the tools that match every given test — `tools`
 * (globs over the tool's name as listed, its original name, or `server/original`), `servers` (globs
 * over server names) and `annotations`. Deny wins; once any allow rule applies to a caller, only
 * what some allow rule matches is allowed.
 */
export const toolRuleInputSchema = z
  .object({
    scope: accessScopeSchema,
    effect: z.enum(['allow', 'deny']),
    tools: z.array(z.string().min(1)).min(1).optional(),
    servers: z.array(z.string().min(1)).min(1).optional(),
    annotations: annotationFilterSchema.optional(),
    description: z.string().max(500).optional(),
  })
  .strict();
export type ToolRuleInput = z.infer<typeof toolRuleInputSchema>;
/** A stored tool rule. */
export type ToolRule = ToolRuleInput & { id: string; createdAt: string };

/**
 * A rate limit: `perMinute` calls (a token bucket refilling evenly over the minute, holding at most
 * `perMinute`). Counted per caller (user scope always; others when `perCaller`), else shared by
 * everyone in scope; with `tools`, each matching tool has a bucket of its own.
 */
export const rateLimitInputSchema = z
  .object({
    scope: accessScopeSchema,
    perMinute: z.number().int().positive().max(1_000_000),
    tools: z.array(z.string().min(1)).min(1).optional(),
    perCaller: z.boolean().optional(),
    description: z.string().max(500).optional(),
  })
  .strict();
export type RateLimitInput = z.infer<typeof rateLimitInputSchema>;
/** A stored rate limit. */
export type RateLimit = RateLimitInput & { id: string; createdAt: string };

/** How an endpoint names its tools: the `/mcp` names, always `server_tool`, or the upstream's own names. */
export const endpointNamingSchema = z.enum(['on-conflict', 'prefix', 'none']);
export type EndpointNaming = z.infer<typeof endpointNamingSchema>;

/** A named endpoint served at `/mcp/e/NAME`. */
export const endpointInputSchema = z
  .object({
    description: z.string().max(500).optional(),
    /** Globs over server names. @default ['*'] */
    servers: z.array(z.string().min(1)).min(1).optional(),
    /** Globs over tool names (as listed on `/mcp`, original, or `server/original`). @default ['*'] */
    tools: z.array(z.string().min(1)).min(1).optional(),
    /** Only tools whose annotations pass (e.g. `{ readOnlyHint: true }`: read-only tools only). */
    annotations: annotationFilterSchema.optional(),
    /** Tool (as selected) → the name this endpoint lists it under. */
    renames: z.record(z.string().min(1), z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'use letters, digits, _ . - (up to 128)')).optional(),
    /** Tool (as selected) → the description this endpoint lists. */
    descriptions: z.record(z.string().min(1), z.string().max(4_000)).optional(),
    /** @default 'on-conflict' */
    naming: endpointNamingSchema.optional(),
    /** Stored for tool search (`off | on | auto`). @default 'off' */
    toolSearch: z.enum(['off', 'on', 'auto']).optional(),
    /** Who may use it besides admins (and its owner). */
    access: z.object({ users: z.array(z.string().min(1)).optional(), groups: z.array(z.string().min(1)).optional() }).strict().optional(),
    /**
     * Tools without `readOnlyHint` wait for a human's approval: on the dashboard, or (`ask: 'client'`)
     * from the caller's own client by elicitation when it can answer one (else the dashboard).
     */
    approval: z.object({ writes: z.boolean(), timeoutSeconds: z.number().positive().max(3_600).optional(), ask: z.enum(['dashboard', 'client']).optional() }).strict().optional(),
  })
  .strict();
export type EndpointInput = z.infer<typeof endpointInputSchema>;
/** A stored endpoint. */
export type EndpointRecord = EndpointInput & { id: string; name: string; ownerId?: string; createdAt: string; updatedAt: string };

/** Parses `input` with `schema`, or throws CONFIG_INVALID naming each bad field under `where`. */
export function parseAccessInput<T>(schema: z.ZodType<T>, input: unknown, where: string): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues: ConfigIssue[] = parsed.error.issues.map((issue) => ({ path: [where, ...issue.path.map(String)].join('.'), message: issue.message }));
  throw new ConfigError(issues, [], where);
}

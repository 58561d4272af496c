/**
 * @module registry/tenant-policy
 * The rules a tenant (a non-admin user) cannot break, and the explicit exceptions an admin may grant,
 * globally or per user. Every refusal names its rule, so people know what to ask for.
 *
 * - `stdio`: no server processes, except instances of admin-defined templates;
 * - `host-env`: no `${VAR}` expansion of the gateway's environment, no `inheritEnv`;
 * - `url-scheme` / `https-required`: remote servers over `https:` (plain `http:` only to allowed hosts);
 * - `forbidden-address` / `unresolvable-host`: the URL's host must resolve, and every address it
 *   resolves to must be public (see {@link classifyAddress}); checked again for every connection;
 * - `server-limit`: at most `maxServers` servers; `maxConcurrentCalls` calls at once.
 */

import { isIP } from 'node:net';
import { z } from 'zod';
import { hasEnvReference } from '../config/expand-env.js';
import { ErrorCode, SwitchboardError } from '../errors.js';
import { ADDRESS_CATEGORIES, addressInCidr, classifyAddress, parseCidr, type AddressCategory, type AddressClass } from './ip-address.js';
import { resolveWithin, type HostResolver } from './resolve-host.js';

/** What tenants may do. Admins are not bound by it. */
export interface TenantPolicy {
  /** Tenants may register raw stdio commands, not only template instances. @default false */
  allowStdio: boolean;
  /** Tenant entries may expand `${VAR}` from the gateway's environment and use `inheritEnv`. @default false */
  allowHostEnv: boolean;
  /** Hosts (exact, or `*.example.com`) tenants may reach over plain `http:`. @default [] */
  allowHttpHosts: string[];
  /**
   * Address ranges tenants may reach although they are not public: a category (`loopback`, `private`,
   * `link-local`, `cgnat`, `metadata`, `unspecified`, `multicast`, `reserved`) or a CIDR (`10.1.0.0/16`).
   * @default []
   */
  allowAddresses: string[];
  /** Servers one tenant may register. @default 25 */
  maxServers: number;
  /** Tool calls one tenant may have running at once (more wait). @default 8 */
  maxConcurrentCalls: number;
}

/** The policy when an admin has said nothing. */
export const DEFAULT_TENANT_POLICY: Readonly<TenantPolicy> = Object.freeze({
  allowStdio: false,
  allowHostEnv: false,
  allowHttpHosts: [],
  allowAddresses: [],
  maxServers: 25,
  maxConcurrentCalls: 8,
});

/** The name of each rule, as errors report it. */
export type PolicyRule =
  | 'stdio'
  | 'host-env'
  | 'url-scheme'
  | 'https-required'
  | 'forbidden-address'
  | 'unresolvable-host'
  | 'server-limit'
  | 'template'
  | 'shared-read-only';

/** One broken rule. */
export interface PolicyViolation {
  rule: PolicyRule;
  message: string;
  hint?: string;
}

const addressAllowance = z.string().refine((value) => (ADDRESS_CATEGORIES as readonly string[]).includes(value) || parseCidr(value) !== undefined, {
  message: `must be a CIDR such as 10.0.0.0/8 or one of ${ADDRESS_CATEGORIES.join(', ')}`,
});

/** The schema of a (partial) policy as stored or given by an admin. */
export const tenantPolicySchema = z
  .object({
    allowStdio: z.boolean(),
    allowHostEnv: z.boolean(),
    allowHttpHosts: z.array(z.string().regex(/^(\*\.)?[A-Za-z0-9.-]+$|^\[[0-9a-fA-F:.]+\]$/, 'must be a host name, *.domain, an IPv4 address or [IPv6]')),
    allowAddresses: z.array(addressAllowance),
    maxServers: z.number().int().min(0),
    maxConcurrentCalls: z.number().int().min(1),
  })
  .partial()
  .strict();

/** Validates a partial policy; throws INVALID_ARGUMENT listing every problem. */
export function parsePolicy(raw: unknown, where = 'policy'): Partial<TenantPolicy> {
  const parsed = tenantPolicySchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${[where, ...issue.path.map(String)].join('.')}: ${issue.message}`);
    throw new SwitchboardError(ErrorCode.InvalidArgument, `invalid policy: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/**
 * The policy of one tenant: the global policy with the user's exceptions on top. Lists add up,
 * flags loosen (either one true), limits come from the user when set.
 */
export function effectivePolicy(global: Partial<TenantPolicy>, user: Partial<TenantPolicy> | undefined): TenantPolicy {
  const base: TenantPolicy = { ...DEFAULT_TENANT_POLICY, ...global };
  if (user === undefined) return base;
  return {
    allowStdio: base.allowStdio || user.allowStdio === true,
    allowHostEnv: base.allowHostEnv || user.allowHostEnv === true,
    allowHttpHosts: [...new Set([...base.allowHttpHosts, ...(user.allowHttpHosts ?? [])])],
    allowAddresses: [...new Set([...base.allowAddresses, ...(user.allowAddresses ?? [])])],
    maxServers: user.maxServers ?? base.maxServers,
    maxConcurrentCalls: user.maxConcurrentCalls ?? base.maxConcurrentCalls,
  };
}

/** The error for a refused registration: every broken rule, by name. */
export function policyViolationError(violations: readonly PolicyViolation[], subject: string): SwitchboardError {
  const rules = [...new Set(violations.map((violation) => violation.rule))];
  const lines = violations.map((violation) => `  [${violation.rule}] ${violation.message}${violation.hint === undefined ? '' : ` — ${violation.hint}`}`);
  // Each line carries its own hint; a separate `hint` would repeat the first one.
  return new SwitchboardError(ErrorCode.PolicyViolation, `${subject} was refused by the tenant policy (${rules.join(', ')}):\n${lines.join('\n')}`, {
    details: { rules, violations },
  });
}

/** True when the address class is public, or the policy allows its range. */
export function isAddressAllowed(address: AddressClass, policy: Pick<TenantPolicy, 'allowAddresses'>): boolean {
  if (address.category === undefined) return true;
  return policy.allowAddresses.some((allowance) =>
    (ADDRESS_CATEGORIES as readonly string[]).includes(allowance) ? allowance === address.category : addressInCidr(address.embedded?.ipv4 ?? address.address, allowance) || addressInCidr(address.address, allowance),
  );
}

/** The violation of one address, or undefined when it may be reached. */
export function checkAddress(address: string, host: string, policy: Pick<TenantPolicy, 'allowAddresses'>): PolicyViolation | undefined {
  const classified = classifyAddress(address);
  if (classified.category === undefined || isAddressAllowed(classified, policy)) return undefined;
  return forbiddenAddress(host, classified, classified.category);
}

function forbiddenAddress(host: string, address: AddressClass, category: AddressCategory): PolicyViolation {
  const via = address.embedded === undefined ? '' : ` (${address.embedded.form} form of ${address.embedded.ipv4})`;
  const what = host === address.address ? `${address.address}${via}` : `${host} resolves to ${address.address}${via}, which`;
  return {
    rule: 'forbidden-address',
    message: `${what} is a ${category} address; tenant servers must be public`,
    hint: `an admin can allow it with allowAddresses: ["${category}"] or a CIDR`,
  };
}

/** True when `host` matches an `allowHttpHosts` pattern (exact, or `*.domain` for subdomains). */
export function hostMatches(host: string, patterns: readonly string[]): boolean {
  const lower = host.toLowerCase();
  return patterns.some((pattern) => {
    const candidate = pattern.toLowerCase();
    if (candidate.startsWith('*.')) return lower.endsWith(candidate.slice(1));
    return candidate === lower;
  });
}

/** The scheme rules for one URL (no DNS): https, or http to an allowed host. */
export function checkUrlScheme(url: URL, policy: Pick<TenantPolicy, 'allowHttpHosts'>): PolicyViolation | undefined {
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    if (hostMatches(url.hostname, policy.allowHttpHosts)) return undefined;
    return { rule: 'https-required', message: `${url.origin} is plain http`, hint: `use https://, or an admin can add "${url.hostname}" to allowHttpHosts` };
  }
  return { rule: 'url-scheme', message: `the ${url.protocol} scheme is not allowed`, hint: 'use an https:// URL' };
}

/** Every rule a remote URL breaks, resolving its host name (fail closed). */
export async function checkRemoteUrl(url: URL, policy: TenantPolicy, resolver: HostResolver, resolveTimeoutMs?: number): Promise<PolicyViolation[]> {
  const violations: PolicyViolation[] = [];
  const scheme = checkUrlScheme(url, policy);
  if (scheme !== undefined) violations.push(scheme);
  if (scheme?.rule === 'url-scheme') return violations;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    const violation = checkAddress(host, host, policy);
    if (violation !== undefined) violations.push(violation);
    return violations;
  }
  let addresses: string[];
  try {
    addresses = await resolveWithin(resolver, host, resolveTimeoutMs);
  } catch (error) {
    violations.push({
      rule: 'unresolvable-host',
      message: `${host} does not resolve (${error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error)})`,
      hint: 'check the host name; names are resolved when registering and again for every connection',
    });
    return violations;
  }
  // Every address must pass: a resolver may hand out any of them later.
  for (const address of addresses) {
    const violation = checkAddress(address, host, policy);
    if (violation !== undefined) {
      violations.push(violation);
      break;
    }
  }
  return violations;
}

/** Violations of the `host-env` rule in a raw entry: `${VAR}` references and `inheritEnv`. */
export function checkHostEnv(entry: Readonly<Record<string, unknown>>, path: string): PolicyViolation[] {
  const violations: PolicyViolation[] = [];
  if (entry.inheritEnv !== undefined) {
    violations.push({ rule: 'host-env', message: `${path}.inheritEnv passes the gateway's environment to the server`, hint: 'remove inheritEnv' });
  }
  const visit = (value: unknown, at: string): void => {
    if (typeof value === 'string') {
      if (hasEnvReference(value)) {
        violations.push({ rule: 'host-env', message: `${at} refers to an environment variable (\${…}); tenant entries cannot read the gateway's environment`, hint: 'write the value itself' });
      }
    } else if (Array.isArray(value)) value.forEach((item, index) => visit(item, `${at}.${index}`));
    else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) visit(item, `${at}.${key}`);
  };
  for (const [key, value] of Object.entries(entry)) visit(value, `${path}.${key}`);
  return violations;
}

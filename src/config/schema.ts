/**
 * @module config/schema
 * The zod schemas of a config file as people write it (`mcpServers` / `servers` entries). These are the
 * types of raw input; {@link normalizeConfig} turns them into {@link ServerSpec}s.
 *
 * The schemas are built on first use (see `config-schemas.ts`): zod costs about 14 MiB and 100 ms to
 * load, and a config of the common shapes is checked without it (`quick-check.ts`); zod judges
 * everything else and writes every error message.
 */

import type { z as Zod } from 'zod';

/** Builds the schemas with the given zod namespace. */
export function createConfigSchemas(z: typeof Zod) {
  const scalar = z.union([z.string(), z.number(), z.boolean()]);
  const duration = z.union([z.number(), z.string()]);
  const globList = z.array(z.string());

  /** `oauth:` in a server entry: `true` (defaults: dynamic registration or a metadata document) or the settings. */
  const oauthEntrySchema = z.union([
    z.boolean(),
    z.strictObject({
      grant: z.enum(['authorization_code', 'client_credentials', 'jwt-bearer']).optional(),
      clientId: z.string().min(1).optional(),
      clientSecret: z.string().min(1).optional(),
      clientMetadataUrl: z.string().optional(),
      clientName: z.string().min(1).optional(),
      scopes: z.union([z.string(), z.array(z.string())]).optional(),
      privateKey: z.string().min(1).optional(),
      privateKeyFile: z.string().min(1).optional(),
      signingAlgorithm: z.string().optional(),
      redirectPort: z.number().int().min(1).max(65535).optional(),
      assertion: z.string().min(1).optional(),
      assertionFile: z.string().min(1).optional(),
      idp: z
        .strictObject({
          tokenEndpoint: z.string().optional(),
          url: z.string().optional(),
          clientId: z.string().min(1),
          clientSecret: z.string().min(1).optional(),
          idToken: z.string().min(1),
        })
        .optional(),
    }),
  ]);
  /** One server entry as written in a config file. */
  const serverEntrySchema = z.object({
    path: z.string().optional(),
    command: z.string().optional(),
    args: z.array(scalar).optional(),
    env: z.record(z.string(), scalar).optional(),
    cwd: z.string().optional(),
    url: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    transport: z.enum(TRANSPORT_NAMES).optional(),
    type: z.enum(TRANSPORT_NAMES).optional(),
    apiKey: z.string().optional(),
    apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name such as API_KEY').optional(),
    timeout: duration.optional(),
    callTimeout: duration.optional(),
    prefix: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be 1-32 characters of letters, digits, _ or -').optional(),
    include: globList.optional(),
    exclude: globList.optional(),
    enabled: z.boolean().optional(),
    disabled: z.boolean().optional(),
    protocol: z.string().optional(),
    retry: z.union([z.literal(false), z.object({ attempts: z.number().int().min(1).max(10).optional(), backoff: duration.optional(), maxBackoff: duration.optional(), onTimeout: z.boolean().optional() })]).optional(),
    restart: z.union([z.literal(false), z.object({ attempts: z.number().int().min(1).max(100).optional(), delay: duration.optional(), maxDelay: duration.optional(), probeInterval: duration.optional() })]).optional(),
    healthCheck: z.union([z.literal(false), z.object({ interval: duration.optional(), timeout: duration.optional(), misses: z.number().int().min(1).max(100).optional() })]).optional(),
    cache: z.union([z.boolean(), z.object({ ttl: duration.optional(), maxEntries: z.number().int().min(1).max(1_000_000).optional(), tools: globList.optional(), readOnly: z.boolean().optional() })]).optional(),
    inheritEnv: z.array(z.string()).optional(),
    validateOutput: z.enum(['off', 'warn', 'error']).optional(),
    description: z.string().optional(),
    oauth: oauthEntrySchema.optional(),
  });

  /** Top-level options beside the server map. */
  const topLevelSchema = z.object({
    mcpServers: z.record(z.string(), z.unknown()).optional(),
    servers: z.record(z.string(), z.unknown()).optional(),
    naming: z.enum(['on-conflict', 'prefix', 'none']).optional(),
    onServerError: z.enum(['skip', 'throw']).optional(),
    maxConcurrentStarts: z.number().int().min(1).max(1000).optional(),
    /** The gateway as a resource server of an external authorization server (`switchboard serve`). */
    authorization: z
      .object({
        issuer: z.string().url(),
        jwksUri: z.string().url().optional(),
        audience: z.string().min(1).optional(),
        userClaim: z.string().min(1).optional(),
        algorithms: z.array(z.string().min(1)).min(1).optional(),
      })
      .strict()
      .optional(),
  });
  return { oauthEntrySchema, serverEntrySchema, topLevelSchema };
}

/** The schemas {@link createConfigSchemas} builds. */
export type ConfigSchemas = ReturnType<typeof createConfigSchemas>;
/** `oauth:` in a server entry, as parsed. */
export type OAuthEntry = Zod.infer<ConfigSchemas['oauthEntrySchema']>;
/** One server entry as parsed. */
export type ServerEntry = Zod.infer<ConfigSchemas['serverEntrySchema']>;

/** Transport names accepted in `transport` / `type` (VS Code writes `type`). */
export const TRANSPORT_NAMES = ['stdio', 'http', 'sse', 'streamable-http', 'streamableHttp', 'streamable_http'] as const;

/** Keys of a server entry, for unknown-key warnings (the keys of the entry schema; a test keeps them equal). */
export const SERVER_ENTRY_KEYS: ReadonlySet<string> = new Set([
  'path', 'command', 'args', 'env', 'cwd', 'url', 'headers', 'transport', 'type', 'apiKey', 'apiKeyEnv', 'timeout', 'callTimeout',
  'prefix', 'include', 'exclude', 'enabled', 'disabled', 'protocol', 'retry', 'restart', 'healthCheck', 'cache', 'inheritEnv',
  'description', 'oauth', 'validateOutput',
]);

/** Keys people write by mistake, and what to write instead. */
export const SERVER_ENTRY_KEY_HINTS: Readonly<Record<string, string>> = {
  endpoint: 'use `url`',
  serverUrl: 'use `url`',
  uri: 'use `url`',
  arguments: 'use `args`',
  environment: 'use `env`',
  workingDirectory: 'use `cwd`',
  api_key: 'use `apiKey`',
  token: 'use `apiKey` (sent as a Bearer token) or `headers`',
  callTimeoutMs: 'use `callTimeout` with a unit, e.g. "30s"',
  timeoutMs: 'use `timeout` with a unit, e.g. "5s"',
  auth: 'use `oauth` (or `apiKey` for a static token)',
};

/** Top-level keys, for unknown-key warnings (`$schema` and VS Code's `inputs` are tolerated silently). */
export const TOP_LEVEL_KEYS: ReadonlySet<string> = new Set(['mcpServers', 'servers', 'naming', 'onServerError', 'maxConcurrentStarts', 'authorization', '$schema', 'inputs']);

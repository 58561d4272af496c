import { expect, test } from 'vitest';
import * as registry from './index.js';

// Every runtime export of mcp-switchboard/registry is public API, the pool's re-exported names included
// (ClientPool and UserClient live in src/pool/): an addition or removal must show in review.
test('the export list of mcp-switchboard/registry', () => {
  expect(Object.keys(registry).sort()).toMatchInlineSnapshot(`
    [
      "ADDRESS_CATEGORIES",
      "AccessStore",
      "AuditWriter",
      "ClientPool",
      "DATABASE_ENV",
      "DEFAULT_AUDIT_BATCH_SIZE",
      "DEFAULT_AUDIT_CLOSE_TIMEOUT_MS",
      "DEFAULT_AUDIT_FLUSH_MS",
      "DEFAULT_AUDIT_MAX_BUFFERED",
      "DEFAULT_AUDIT_MAX_RETRY_MS",
      "DEFAULT_AUDIT_RETRY_MS",
      "DEFAULT_DATABASE_PATH",
      "DEFAULT_IDLE_TTL_MS",
      "DEFAULT_MAX_CLIENTS",
      "DEFAULT_TENANT_POLICY",
      "GroupStore",
      "OAUTH_SECRET_KIND",
      "RegistryOAuthTokenStore",
      "SECRET_MASK",
      "ServerRegistry",
      "SqlBucketStore",
      "UserClient",
      "accessScopeSchema",
      "annotationFilterSchema",
      "annotationsPass",
      "classifyAddress",
      "createPinnedFetch",
      "describeRule",
      "effectiveAnnotations",
      "endpointInputSchema",
      "endpointNamingSchema",
      "evaluateToolPolicy",
      "maskSecret",
      "maskUrl",
      "maskValues",
      "parseAccessInput",
      "rateLimitInputSchema",
      "refill",
      "retryAfterMs",
      "ruleMatches",
      "rulesFor",
      "scopeApplies",
      "serverGlobMatches",
      "toolGlobMatches",
      "toolRuleInputSchema",
      "userLoginTarget",
    ]
  `);
});

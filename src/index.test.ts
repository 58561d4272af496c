import { expect, test } from 'vitest';
import * as api from './index.js';

// Every runtime export of the package is public API: an addition or removal must show in review.
test('the export list of mcp-switchboard', () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "CALL_TOOL_NAME",
      "ConfigError",
      "DEFAULT_CALL_TIMEOUT_MS",
      "DEFAULT_MAX_AUTHORIZATIONS_PER_REQUEST",
      "DEFAULT_REFRESH_BEFORE_EXPIRY_MS",
      "DEFAULT_SEARCH_LIMIT",
      "DEFAULT_STARTUP_TIMEOUT_MS",
      "ErrorCode",
      "FileOAuthTokenStore",
      "HybridToolSearch",
      "MemoryOAuthTokenStore",
      "MultiServerClient",
      "SEARCH_TOOLS_NAME",
      "SERVER_STATES",
      "ServerConnection",
      "SwitchboardError",
      "TOOL_SEARCH_MODES",
      "ToolDiscovery",
      "ToolIndex",
      "UI_CLIENT_CAPABILITY",
      "UI_EXTENSION_ID",
      "UI_MIME_TYPE",
      "VERSION",
      "estimateDefinitionTokens",
      "fetchEmbeddings",
      "formatConfigIssue",
      "isProviderSafeName",
      "isSwitchboardError",
      "loadConfig",
      "loadSecretKey",
      "metaToolDefinitions",
      "noopLogger",
      "normalizeConfig",
      "normalizeToolResult",
      "oauthStoreKey",
      "resolveToolSearch",
      "safeIcons",
      "uiResourceUriOf",
    ]
  `);
});

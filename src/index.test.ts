import { expect, test } from 'vitest';
import * as api from './index.js';

// Every runtime export of the package is public API: an addition or removal must show in review.
test('the export list of mcp-switchboard', () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "ConfigError",
      "DEFAULT_CALL_TIMEOUT_MS",
      "DEFAULT_MAX_AUTHORIZATIONS_PER_REQUEST",
      "DEFAULT_REFRESH_BEFORE_EXPIRY_MS",
      "DEFAULT_STARTUP_TIMEOUT_MS",
      "ErrorCode",
      "FileOAuthTokenStore",
      "MemoryOAuthTokenStore",
      "MultiServerClient",
      "SERVER_STATES",
      "ServerConnection",
      "SwitchboardError",
      "UI_CLIENT_CAPABILITY",
      "UI_EXTENSION_ID",
      "UI_MIME_TYPE",
      "VERSION",
      "formatConfigIssue",
      "isProviderSafeName",
      "isSwitchboardError",
      "loadConfig",
      "loadSecretKey",
      "noopLogger",
      "normalizeConfig",
      "normalizeToolResult",
      "oauthStoreKey",
      "safeIcons",
      "uiResourceUriOf",
    ]
  `);
});

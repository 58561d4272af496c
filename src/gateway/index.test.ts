import { expect, test } from 'vitest';
import * as api from './index.js';

// Every runtime export of mcp-switchboard/gateway is public API: an addition or removal must show in review.
test('the export list of mcp-switchboard/gateway', () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_ADMIN_NAME",
      "DEFAULT_HEADERS_TIMEOUT_MS",
      "DEFAULT_HOST",
      "DEFAULT_MAX_BODY_BYTES",
      "DEFAULT_MAX_CONNECTIONS",
      "DEFAULT_MAX_EVENT_STREAMS",
      "DEFAULT_MAX_EVENT_STREAMS_PER_USER",
      "DEFAULT_MAX_LISTEN_STREAMS",
      "DEFAULT_MAX_LISTEN_STREAMS_PER_USER",
      "DEFAULT_MAX_SESSIONS",
      "DEFAULT_MAX_SESSIONS_PER_USER",
      "DEFAULT_PORT",
      "DEFAULT_REQUEST_TIMEOUT_MS",
      "DEFAULT_SESSION_IDLE_TTL_MS",
      "DEFAULT_SHUTDOWN_DEADLINE_MS",
      "EVENTS_PING_INTERVAL_MS",
      "Gateway",
      "MemoryBucketStore",
      "TOKEN_ENV",
      "bootstrapAdmin",
      "connectionSnippets",
      "createGatewayApp",
      "createHostCheck",
      "createJsonLogger",
      "fromPino",
      "readTokenFile",
      "serveGatewayStdio",
      "startGateway",
      "statusOf",
      "toApiError",
      "writeTokenFile",
    ]
  `);
});

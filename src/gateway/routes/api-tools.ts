/**
 * @module gateway/routes/api-tools
 * `GET /api/tools` (the user's catalog and its version; with `?q=words`, the best matches of the
 * client's tool search, best first, up to `limit` (default 50), optionally of one `server`) and `POST /api/tools/:name/call`
 * (`{ "arguments": {…} }` → `{ result, durationMs }`; a result with `isError` is a 200 too; failures
 * are error JSON: 400 bad arguments, 404 unknown tool, 429 the user's call limit, 502 the upstream
 * failed, 504 it timed out). A call made here counts as running for shutdown, and cannot answer an
 * upstream's elicitation or sampling request (those are declined).
 *
 * With `Accept: text/event-stream` the call's progress is streamed: `progress` events
 * (`{progress, total?, message?}`), then one `result` (`{result, durationMs}`) or one `error` (the
 * error JSON plus its `status`). An unknown tool is still a plain 404: the stream starts only for a
 * tool that exists.
 */

import type { AppView, CallAnswer, ToolView, ToolsResponse } from '../../contract/api-contract.js';
import { streamSSE } from 'hono/streaming';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import { toApiError } from '../http-error.js';
import type { Gateway } from '../gateway.js';
import { jsonObjectBody, userOf, type GatewayApp } from '../gateway-app-types.js';
import { isRecord } from '../wire-format.js';
import { searchToolsFor } from './search-tools-query.js';
import type { RegistryUser } from '../../registry/index.js';
import type { ToolGate } from '../access/tool-gate.js';
import type { CatalogTool } from '../../client/multi-server-client.js';

/** The access check of `user` on `/mcp`, or on the named endpoint of `?endpoint=` (404 unless they may use it). */
function gateOf(gateway: Gateway, user: RegistryUser, endpoint: string | undefined): ToolGate {
  if (endpoint !== undefined) gateway.access.endpointFor(user, endpoint);
  else if (!gateway.access.everythingAllowed(user)) throw new SwitchboardError(ErrorCode.Forbidden, 'the administrator turned the everything endpoint off: name an endpoint with ?endpoint=NAME', { hint: 'GET /api/endpoints lists yours' });
  return gateway.access.gateFor(user, endpoint);
}

/** The search's matches that `visible` (the gate's list) holds, under the names the gate gives them. */
function onlyVisible(found: readonly CatalogTool[], visible: readonly CatalogTool[]): CatalogTool[] {
  const byOrigin = new Map(visible.map((tool) => [`${tool.server}\0${tool.originalName}`, tool]));
  return found.flatMap((tool) => byOrigin.get(`${tool.server}\0${tool.originalName}`) ?? []);
}
import { appFields, toolApp } from './tool-app.js';
import { APP_FRAME_HEADERS, APP_FRAME_PATH, AppFrames } from '../app-frames.js';

const API_DOWNSTREAM = { key: {}, era: 'api', canElicit: false, canSample: false } as const;

/** Adds the `/api/tools` routes (behind the auth middleware). */
export function registerToolRoutes(app: GatewayApp, gateway: Gateway): void {
  const frames = new AppFrames();
  // No token on this path: the one-time URL is the authorization (see app-frames).
  app.get(`${APP_FRAME_PATH}/:token`, (c) => {
    const html = frames.take(c.req.param('token'));
    return html === undefined ? c.text('This app frame is unknown, used or expired: open the app again.', 404) : c.body(html, 200, APP_FRAME_HEADERS);
  });

  app.get('/api/tools', async (c) => {
    const user = userOf(c);
    const gate = gateOf(gateway, user, c.req.query('endpoint'));
    const lease = await gateway.lease(user);
    try {
      const query = c.req.query('q');
      const visible = gate.list(lease.client);
      const found = query === undefined ? visible : onlyVisible(searchToolsFor(lease.client.client, query, c.req.query('limit'), c.req.query('server')), visible);
      const tools = found.map((tool): ToolView => ({
        name: tool.name,
        server: tool.server,
        originalName: tool.originalName,
        ...(tool.title === undefined ? {} : { title: tool.title }),
        ...(tool.description === undefined ? {} : { description: tool.description }),
        inputSchema: tool.inputSchema,
        ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
        ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
        ...(tool.icons === undefined ? {} : { icons: tool.icons }),
        ...appFields(tool),
      }));
      return c.json({ tools, version: lease.client.catalogVersion, ...(query === undefined ? {} : { query }) } satisfies ToolsResponse);
    } finally {
      lease.release();
    }
  });

  app.get('/api/tools/:name/app', async (c) => {
    const user = userOf(c);
    const gate = gateOf(gateway, user, c.req.query('endpoint'));
    const lease = await gateway.lease(user);
    try {
      // Only a tool this user may see (on /mcp or the named endpoint) shows its app.
      const name = c.req.param('name');
      const app = await toolApp(lease.client, name, gate.list(lease.client).find((tool) => tool.name === name));
      return c.json({ uri: app.uri, mimeType: app.mimeType, frameUrl: frames.issue(app.html) } satisfies AppView);
    } finally {
      lease.release();
    }
  });

  app.post('/api/tools/:name/call', async (c) => {
    const user = userOf(c);
    const gate = gateOf(gateway, user, c.req.query('endpoint'));
    let name = c.req.param('name');
    const body = await jsonObjectBody(c);
    const args = body.arguments ?? {};
    if (!isRecord(args)) throw new SwitchboardError(ErrorCode.InvalidArgument, '`arguments` must be a JSON object');
    const lease = await gateway.lease(user);
    try {
      // The same check as on /mcp: rules, the endpoint's selection and names, rate limits (429), approval.
      name = (await gate.authorize(lease.client, name, args, { signal: c.req.raw.signal }))?.name ?? name;
    } catch (error) {
      lease.release();
      throw error;
    }
    const tool = lease.client.getTool(name);
    if (tool !== undefined && (c.req.header('accept') ?? '').includes('text/event-stream')) {
      const tracked = gateway.calls.begin(user.id, tool.server, API_DOWNSTREAM, c.req.raw.signal);
      return streamSSE(c, async (stream) => {
        const send = (event: string, payload: object): Promise<void> => (stream.closed || stream.aborted ? Promise.resolve() : stream.writeSSE({ event, data: JSON.stringify(payload) }));
        const started = performance.now();
        try {
          const result = await lease.client.callTool(name, args, {
            signal: tracked.call.abort.signal,
            onProgress: ({ progress, total, message }) => void send('progress', { progress, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) }).catch(() => {}),
          });
          await send('result', { result, durationMs: Math.round((performance.now() - started) * 10) / 10 } satisfies CallAnswer);
        } catch (error) {
          const { status, body } = toApiError(error);
          await send('error', { ...body, status }).catch(() => {});
        } finally {
          tracked.end();
          lease.release();
        }
      });
    }
    try {
      // An unknown tool is refused by the client itself (with the reason: no such tool, or its server is down).
      const tracked = tool === undefined ? undefined : gateway.calls.begin(user.id, tool.server, API_DOWNSTREAM, c.req.raw.signal);
      const started = performance.now();
      try {
        const signal = tracked === undefined ? c.req.raw.signal : tracked.call.abort.signal;
        const result = await lease.client.callTool(name, args, { signal });
        return c.json({ result, durationMs: Math.round((performance.now() - started) * 10) / 10 } satisfies CallAnswer);
      } finally {
        tracked?.end();
      }
    } finally {
      lease.release();
    }
  });
}

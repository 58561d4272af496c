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

import type { CallAnswer, ToolView, ToolsResponse } from '../../contract/api-contract.js';
import { streamSSE } from 'hono/streaming';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import { toApiError } from '../http-error.js';
import type { Gateway } from '../gateway.js';
import { jsonObjectBody, userOf, type GatewayApp } from '../gateway-app-types.js';
import { isRecord } from '../wire-format.js';
import { searchToolsFor } from './search-tools-query.js';

const API_DOWNSTREAM = { key: {}, era: 'api', canElicit: false, canSample: false } as const;

/** Adds the `/api/tools` routes (behind the auth middleware). */
export function registerToolRoutes(app: GatewayApp, gateway: Gateway): void {
  app.get('/api/tools', async (c) => {
    const lease = await gateway.lease(userOf(c));
    try {
      const query = c.req.query('q');
      const found = query === undefined ? lease.client.listTools() : searchToolsFor(lease.client.client, query, c.req.query('limit'), c.req.query('server'));
      const tools = found.map((tool): ToolView => ({
        name: tool.name,
        server: tool.server,
        originalName: tool.originalName,
        ...(tool.title === undefined ? {} : { title: tool.title }),
        ...(tool.description === undefined ? {} : { description: tool.description }),
        inputSchema: tool.inputSchema,
        ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
        ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
      }));
      return c.json({ tools, version: lease.client.catalogVersion, ...(query === undefined ? {} : { query }) } satisfies ToolsResponse);
    } finally {
      lease.release();
    }
  });

  app.post('/api/tools/:name/call', async (c) => {
    const user = userOf(c);
    const name = c.req.param('name');
    const body = await jsonObjectBody(c);
    const args = body.arguments ?? {};
    if (!isRecord(args)) throw new SwitchboardError(ErrorCode.InvalidArgument, '`arguments` must be a JSON object');
    const lease = await gateway.lease(user);
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

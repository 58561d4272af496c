/**
 * @module gateway/routes/api-tools
 * `GET /api/tools` (the user's catalog and its version) and `POST /api/tools/:name/call`
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

import { streamSSE } from 'hono/streaming';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import { toApiError } from '../http-error.js';
import type { Gateway } from '../gateway.js';
import { jsonObjectBody, userOf, type GatewayApp } from '../gateway-app-types.js';
import { isRecord } from '../wire-format.js';
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
    const lease = await gateway.lease(userOf(c));
    try {
      const tools = lease.client.listTools().map((tool) => ({
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
      return c.json({ tools, version: lease.client.catalogVersion });
    } finally {
      lease.release();
    }
  });

  app.get('/api/tools/:name/app', async (c) => {
    const lease = await gateway.lease(userOf(c));
    try {
      const app = await toolApp(lease.client, c.req.param('name'));
      return c.json({ uri: app.uri, mimeType: app.mimeType, frameUrl: frames.issue(app.html) });
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
          await send('result', { result, durationMs: Math.round((performance.now() - started) * 10) / 10 });
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
        return c.json({ result, durationMs: Math.round((performance.now() - started) * 10) / 10 });
      } finally {
        tracked?.end();
      }
    } finally {
      lease.release();
    }
  });
}

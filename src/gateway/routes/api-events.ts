/**
 * @module gateway/routes/api-events
 * `GET /api/events`: Server-Sent Events of the user's client — `server-state-change`,
 * `tool-call-start`, `tool-call-end`, `tool-call-refused`, `tool-progress`, `server-log`, `tools-changed` — and
 * `servers-changed` when the registry changes something the user sees (a tenant is told the name of their
 * own or a shared server or template, of an access change only that one happened). Each `data` is the event's
 * JSON payload plus `time` (ms since epoch); a `: ping` comment every 15 s keeps proxies from
 * closing the stream. `EventSource` cannot send headers, so this route alone also takes `?token=`.
 * The stream holds a lease on the user's client (the dashboard watching keeps the servers up).
 * In a cluster (PostgreSQL) the stream also carries the user's events on the other replicas (see
 * cluster-event-relay), and every event but `servers-changed` has the `replica` id it happened on.
 */

import { streamSSE } from 'hono/streaming';
import type { ClientLease, UserClientEvents } from '../../pool/index.js';
import type { RegistryChange } from '../../registry/index.js';
import type { Gateway } from '../gateway.js';
import { EVENTS_PING_INTERVAL_MS } from '../gateway-defaults.js';
import { userOf, type GatewayApp } from '../gateway-app-types.js';
import { apiErrorResponse } from '../http-error.js';

/** Adds `/api/events` (behind the auth middleware, which accepts `?token=` here). */
export function registerEventsRoute(app: GatewayApp, gateway: Gateway): void {
  app.get('/api/events', async (c) => {
    const user = userOf(c);
    let releaseSlot: () => void;
    try {
      releaseSlot = gateway.eventStreams.take(user);
    } catch (error) {
      return apiErrorResponse(error);
    }
    let lease: ClientLease;
    try {
      lease = await gateway.lease(user);
    } catch (error) {
      releaseSlot();
      throw error;
    }
    const client = lease.client;
    return streamSSE(
      c,
      async (stream) => {
        let finish: () => void = () => {};
        const finished = new Promise<void>((resolve) => (finish = resolve));
        const send = (event: string, payload: object, time: number = Date.now()): void => {
          if (stream.closed || stream.aborted) return;
          stream.writeSSE({ event, data: JSON.stringify({ ...payload, time }) }).catch(() => finish());
        };
        const here = gateway.registry.backend === 'postgres' ? { replica: gateway.replica.id } : {};
        const listeners: { [K in keyof UserClientEvents]?: (payload: UserClientEvents[K]) => void } = {
          'server-state-change': ({ server, from, to, error }) => send('server-state-change', { server, from, to, ...(error === undefined ? {} : { error: error.toJSON() }), ...here }),
          'tool-call-start': (event) => send('tool-call-start', { ...event, ...here }),
          'tool-call-end': (event) => send('tool-call-end', { ...event, ...here }),
          'tool-call-refused': (event) => send('tool-call-refused', { ...event, ...here }),
          'tool-progress': (event) => send('tool-progress', { ...event, ...here }),
          'server-log': (event) => send('server-log', { ...event, ...here }),
          'tools-changed': (event) => send('tools-changed', { ...event, ...here }),
        };
        const on = <K extends keyof UserClientEvents>(event: K): void => {
          const listener = listeners[event];
          if (listener !== undefined) client.on(event, listener);
        };
        const off = <K extends keyof UserClientEvents>(event: K): void => {
          const listener = listeners[event];
          if (listener !== undefined) client.off(event, listener);
        };
        const events = Object.keys(listeners) as Array<keyof UserClientEvents>;
        for (const event of events) on(event);
        const onRegistryChange = (change: RegistryChange): void => {
          // Changes to the user's own servers, shared ones and templates, or unknown ones (another process).
          if (change.kind === 'user' || (typeof change.userId === 'string' && change.userId !== user.id)) return;
          // Access changes (endpoints, groups, rules, limits) and the policy name what a tenant may not see:
          // only administrators hear the name; a tenant hears that something changed, and asks again.
          const named = change.name !== undefined && (user.isAdmin || change.kind === 'server' || change.kind === 'template');
          send('servers-changed', { kind: change.kind, action: change.action, ...(named ? { name: change.name } : {}) });
        };
        gateway.registry.on('change', onRegistryChange);
        const unrelay = gateway.relay.subscribe(user.id, ({ event, payload, time, replica }) => send(event, { ...payload, replica }, time));
        const onEvicted = ({ userId }: { userId: string }): void => {
          if (userId === user.id) finish();
        };
        gateway.pool.on('client-evicted', onEvicted);
        const ping = setInterval(() => {
          stream.write(': ping\n\n').catch(() => finish());
        }, EVENTS_PING_INTERVAL_MS);
        const untrack = gateway.trackStream(() => finish());
        stream.onAbort(() => finish());
        c.req.raw.signal.addEventListener('abort', () => finish(), { once: true });
        try {
          await stream.write(': connected\n\n');
          await finished;
        } finally {
          clearInterval(ping);
          untrack();
          for (const event of events) off(event);
          gateway.registry.off('change', onRegistryChange);
          unrelay();
          gateway.pool.off('client-evicted', onEvicted);
          lease.release();
          releaseSlot();
        }
      },
      async (error) => {
        gateway.logger.warn('event stream failed', { user: user.name, error: error.message });
      },
    );
  });
}

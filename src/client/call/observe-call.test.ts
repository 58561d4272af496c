import { describe, expect, test } from 'vitest';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import { StatsCollector } from '../../metrics/stats-collector.js';
import type { CatalogTool } from '../catalog/catalog-items.js';
import type { ClientEventSink, MultiServerClientEvents } from '../multi-server-client-events.js';
import { CallObservation } from './observe-call.js';

const tool: CatalogTool = { name: 'fs__read', server: 'fs', originalName: 'read', inputSchema: { type: 'object' } };

function sink(listening: ReadonlyArray<keyof MultiServerClientEvents>): ClientEventSink & { events: Array<[string, Record<string, unknown>]> } {
  const events: Array<[string, Record<string, unknown>]> = [];
  return { events, emit: (event, payload) => void events.push([event, payload as Record<string, unknown>]), listenerCount: (event) => (listening.includes(event) ? 1 : 0) };
}

const serverStats = (stats: StatsCollector) => stats.snapshot(new Map([['fs', 'ready']])).servers[0];

describe('CallObservation', () => {
  test('a call is counted in flight from its start, and its end with its outcome', () => {
    const stats = new StatsCollector();
    const observed = new CallObservation(stats, sink([]), tool, 1);
    expect(serverStats(stats)).toMatchObject({ calls: 0, inFlight: 1 });
    observed.succeeded({ isError: true, content: [] });
    expect(serverStats(stats)).toMatchObject({ calls: 1, inFlight: 0, toolErrors: 1 });
    expect(serverStats(stats)?.tools[0]).toMatchObject({ tool: 'read', calls: 1 });
  });

  test('start and end events carry the call id, names and duration, only when someone listens', () => {
    const events = sink(['tool-call-start', 'tool-call-end']);
    new CallObservation(new StatsCollector(), events, tool, 7).end({ ok: true, isError: false, cached: true });
    expect(events.events.map(([name]) => name)).toEqual(['tool-call-start', 'tool-call-end']);
    expect(events.events[0]?.[1]).toEqual({ callId: 7, name: 'fs__read', server: 'fs', originalName: 'read' });
    expect(events.events[1]?.[1]).toMatchObject({ callId: 7, ok: true, cached: true, durationMs: expect.any(Number) });
    const quiet = sink([]);
    new CallObservation(new StatsCollector(), quiet, tool, 8).end({ ok: true, isError: false });
    expect(quiet.events).toEqual([]);
  });

  test('a failure is described for a model, counted under its code, and returned', () => {
    const stats = new StatsCollector();
    const events = sink(['tool-call-end']);
    const failure = new CallObservation(stats, events, tool, 3).failed(new SwitchboardError(ErrorCode.RequestTimeout, 'server "fs", tools/call read: no answer within 5 ms', { server: 'fs' }), 5);
    expect(failure.message).toMatch(/^Tool "fs__read" on server "fs" failed: the server did not answer within the time limit\./);
    expect(failure.hint).toContain('`timeoutMs` (5 ms now)');
    expect(serverStats(stats)).toMatchObject({ calls: 1, timeouts: 1 });
    expect(events.events[0]?.[1]).toMatchObject({ ok: false, errorCode: ErrorCode.RequestTimeout });
  });
});

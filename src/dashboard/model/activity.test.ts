import { describe, expect, it } from 'vitest';
import { activityOf, appendActivity, matchesFilter, type ActivityFilter, type ActivityItem } from './activity.js';

describe('activityOf', () => {
  it('describes calls, logs and state changes', () => {
    expect(activityOf('tool-call-end', { callId: 1, name: 'image', server: 'demo', originalName: 'image', durationMs: 12, ok: true, isError: false, time: 5 }, 1, 9)).toEqual({
      id: 1, time: 5, event: 'tool-call-end', category: 'call', callId: 1, server: 'demo', tool: 'image', status: 'ok', summary: 'image — ok', durationMs: 12,
    });
    expect(activityOf('tool-call-end', { name: 'fail', server: 'demo', durationMs: 3, ok: false, isError: true }, 2, 9)).toMatchObject({ status: 'error', summary: 'fail — tool reported an error', time: 9 });
    expect(activityOf('tool-call-end', { name: 'slow', server: 'demo', ok: false, isError: false, errorCode: 'REQUEST_TIMEOUT' }, 3, 9)?.summary).toBe('slow — failed (REQUEST_TIMEOUT)');
    expect(activityOf('server-log', { server: 'demo', level: 'warning', data: { message: 'careful' }, source: 'mcp' }, 4, 9)).toMatchObject({ category: 'log', status: 'warning', summary: '[warning] {"message":"careful"}' });
    expect(activityOf('server-state-change', { server: 'demo', from: 'connecting', to: 'failed', error: { code: 'X', message: 'boom' } }, 5, 9)).toMatchObject({ category: 'state', status: 'error', summary: 'connecting → failed: boom' });
    expect(activityOf('tool-call-end', 'junk', 6, 9)).toBeUndefined();
    expect(activityOf('tool-call-refused', { callId: 7, name: 'get-sum', server: 'demo', originalName: 'get-sum', errorCode: 'INVALID_ARGUMENT', time: 5 }, 7, 9)).toEqual({
      id: 7, time: 5, event: 'tool-call-refused', category: 'call', callId: 7, server: 'demo', tool: 'get-sum', status: 'error', summary: 'get-sum — refused (INVALID_ARGUMENT), not sent',
    });
    // An unknown name has no server; the line is a problem, as a failed call is.
    const unknown = activityOf('tool-call-refused', { callId: 8, name: 'nope', errorCode: 'TOOL_NOT_FOUND' }, 8, 9);
    expect(unknown).toMatchObject({ status: 'error', summary: 'nope — refused (TOOL_NOT_FOUND), not sent' });
    expect(unknown?.server).toBeUndefined();
  });

  it('filters by category, server, problems and text', () => {
    const call = activityOf('tool-call-end', { name: 'image', server: 'demo', ok: true, isError: false }, 1, 1);
    const log = activityOf('server-log', { server: 'other', level: 'error', data: 'disk full' }, 2, 1);
    if (call === undefined || log === undefined) throw new Error('no items');
    const all: ActivityFilter = { categories: new Set(['call', 'log', 'state']), server: '', text: '', problemsOnly: false };
    expect([call, log].filter((item) => matchesFilter(item, all))).toHaveLength(2);
    expect(matchesFilter(call, { ...all, categories: new Set(['log']) })).toBe(false);
    expect(matchesFilter(call, { ...all, server: 'other' })).toBe(false);
    expect(matchesFilter(call, { ...all, problemsOnly: true })).toBe(false);
    expect(matchesFilter(log, { ...all, problemsOnly: true })).toBe(true);
    expect(matchesFilter(log, { ...all, text: 'DISK' })).toBe(true);
  });
});

describe('appendActivity', () => {
  it('turns a finished call into one line and keeps the newest lines only', () => {
    const items: ActivityItem[] = [];
    const add = (event: 'tool-call-start' | 'tool-progress' | 'tool-call-end', callId: number, id: number): void => {
      const item = activityOf(event, { callId, name: 'sleep', server: 'demo', progress: 1, ok: true, isError: false, durationMs: 5 }, id, id);
      if (item !== undefined) appendActivity(items, item, 3);
    };
    add('tool-call-start', 1, 1);
    add('tool-call-start', 2, 2);
    add('tool-progress', 1, 3);
    add('tool-call-end', 1, 4);
    expect(items.map((item) => [item.id, item.event])).toEqual([
      [2, 'tool-call-start'],
      [4, 'tool-call-end'],
    ]);
    add('tool-call-end', 2, 5);
    add('tool-call-start', 3, 6);
    add('tool-call-start', 4, 7);
    expect(items.map((item) => item.id)).toEqual([5, 6, 7]);
  });
});

describe('events of a cluster', () => {
  it('say which replica they happened on, and a call id of one replica never ends the call of another', () => {
    const start = activityOf('tool-call-start', { callId: 1, name: 'echo', server: 'sink', replica: '0123456789abcdef' }, 1, 1);
    expect(start).toMatchObject({ replica: '0123456789abcdef', summary: 'echo — started · replica 01234567' });
    const items: ActivityItem[] = [];
    if (start !== undefined) appendActivity(items, start, 10);
    const otherEnd = activityOf('tool-call-end', { callId: 1, name: 'echo', server: 'sink', ok: true, isError: false, durationMs: 3, replica: 'fedcba9876543210' }, 2, 2);
    if (otherEnd !== undefined) appendActivity(items, otherEnd, 10);
    expect(items.map((item) => item.id)).toEqual([1, 2]);
    const ownEnd = activityOf('tool-call-end', { callId: 1, name: 'echo', server: 'sink', ok: true, isError: false, durationMs: 3, replica: '0123456789abcdef' }, 3, 3);
    if (ownEnd !== undefined) appendActivity(items, ownEnd, 10);
    expect(items.map((item) => item.id)).toEqual([2, 3]);
  });
});

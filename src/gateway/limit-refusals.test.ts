import { expect, test } from 'vitest';
import { COUNTED_LIMITS, LimitRefusals } from './limit-refusals.js';

test('every counted limit starts at 0; counts add up per limit; a snapshot does not change afterwards', () => {
  const refusals = new LimitRefusals();
  expect([...refusals.snapshot().keys()]).toEqual([...COUNTED_LIMITS]);
  refusals.count('maxSessions');
  refusals.count('maxSessions');
  refusals.count('maxConnections');
  const snapshot = refusals.snapshot();
  refusals.count('maxSessions');
  expect(snapshot.get('maxSessions')).toBe(2);
  expect(snapshot.get('maxConnections')).toBe(1);
  expect(snapshot.get('maxEventStreams')).toBe(0);
  expect(refusals.snapshot().get('maxSessions')).toBe(3);
});

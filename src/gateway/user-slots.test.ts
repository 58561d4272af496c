import { expect, test } from 'vitest';
import { ErrorCode, type SwitchboardError } from '../errors.js';
import { UserSlots } from './user-slots.js';

const slots = (perUser: number, total: number): UserSlots =>
  new UserSlots({ perUser, total, noun: 'things', perUserOption: 'maxThingsPerUser', totalOption: 'maxThings', hint: 'close one' });
const alice = { id: 'u1', name: 'alice' };
const bob = { id: 'u2', name: 'bob' };

function refusal(take: () => unknown): SwitchboardError {
  try {
    take();
  } catch (error) {
    return error as SwitchboardError;
  }
  throw new Error('expected a refusal');
}

test('a user past the per-user cap is refused with LIMIT_EXCEEDED naming the option; others are not', () => {
  const limit = slots(2, 10);
  limit.take(alice);
  limit.take(alice);
  const error = refusal(() => limit.take(alice));
  expect(error.code).toBe(ErrorCode.LimitExceeded);
  expect(error.message).toBe('user "alice" has 2 open things, the most allowed per user (maxThingsPerUser)');
  expect(error.hint).toBe('close one; the administrator can raise maxThingsPerUser');
  limit.take(bob);
  expect(limit.size).toBe(3);
});

test('the total cap holds across users; a release (idempotent) frees exactly one place', () => {
  const limit = slots(5, 2);
  const release = limit.take(alice);
  limit.take(bob);
  expect(refusal(() => limit.take(bob)).message).toBe('the gateway has 2 open things, its limit (maxThings)');
  release();
  release();
  expect(limit.countOf(alice.id)).toBe(0);
  expect(limit.size).toBe(1);
  limit.take(bob);
  expect(() => limit.take(alice)).toThrow('its limit');
});

test('caps must be whole numbers of at least 1', () => {
  expect(() => slots(0, 1)).toThrow('maxThingsPerUser must be a whole number of at least 1, got 0');
  expect(() => slots(1, 1.5)).toThrow('maxThings must be a whole number of at least 1, got 1.5');
});

test('each refusal is reported with the option name of the cap that refused', () => {
  const refused: string[] = [];
  const limit = new UserSlots({ perUser: 1, total: 2, noun: 'things', perUserOption: 'maxThingsPerUser', totalOption: 'maxThings', hint: 'close one', onRefused: (name) => refused.push(name) });
  limit.take(alice);
  refusal(() => limit.take(alice));
  limit.take(bob);
  refusal(() => limit.take({ id: 'u3', name: 'carol' }));
  expect(refused).toEqual(['maxThingsPerUser', 'maxThings']);
});

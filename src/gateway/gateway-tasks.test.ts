import { expect, test } from 'vitest';
import { GatewayTasks, MAX_TASKS_PER_USER } from './gateway-tasks.js';

test('ids are random, bound to their user, and forgotten after the task TTL', () => {
  let now = 0;
  const tasks = new GatewayTasks('u1', () => now);
  const binding = tasks.bind('srv', 'upstream-1', 1_000);
  expect(binding.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  expect(tasks.bind('srv', 'upstream-1', 1_000).id).not.toBe(binding.id);
  expect(tasks.lookup(binding.id, 'u1')).toMatchObject({ server: 'srv', upstreamTaskId: 'upstream-1' });
  expect(tasks.lookup(binding.id, 'u2')).toBeUndefined();
  expect(tasks.lookup('upstream-1', 'u1')).toBeUndefined();
  now = 1_000;
  expect(tasks.lookup(binding.id, 'u1')).toBeUndefined();
});

test('a bounded number per user, oldest forgotten first', () => {
  const tasks = new GatewayTasks('u1');
  const first = tasks.bind('srv', 't0', null);
  for (let index = 1; index <= MAX_TASKS_PER_USER; index++) tasks.bind('srv', `t${index}`, null);
  expect(tasks.list()).toHaveLength(MAX_TASKS_PER_USER);
  expect(tasks.lookup(first.id, 'u1')).toBeUndefined();
});

import { describe, expect, test } from 'vitest';
import { noopLogger } from '../../logger.js';
import { ResourceSubscriptions, type SubscriptionTarget } from './resource-subscriptions.js';

/** A target that records what it was sent; `fail` makes its next requests reject. */
function recordingTarget(): SubscriptionTarget & { sent: string[]; fail: boolean } {
  const target = {
    sent: [] as string[],
    fail: false,
    request(method: string, params: Record<string, unknown>): Promise<unknown> {
      target.sent.push(`${method} ${String(params.uri)}`);
      return target.fail ? Promise.reject(new Error('refused')) : Promise.resolve({});
    },
  };
  return target;
}

const a = { server: 's', uri: 'watch://a' };

describe('ResourceSubscriptions', () => {
  test('concurrent subscribers share one subscribe; the last to leave unsubscribes', async () => {
    const subscriptions = new ResourceSubscriptions(noopLogger);
    const target = recordingTarget();
    await Promise.all([subscriptions.add(a, target), subscriptions.add(a, target)]);
    expect(target.sent).toEqual(['resources/subscribe watch://a']);
    expect(await subscriptions.remove(a, target)).toBe(true);
    expect(target.sent).toHaveLength(1);
    expect(await subscriptions.remove(a, target)).toBe(true);
    expect(target.sent).toEqual(['resources/subscribe watch://a', 'resources/unsubscribe watch://a']);
    expect(await subscriptions.remove(a, target)).toBe(false);
    expect(subscriptions.uris('s')).toEqual([]);
  });

  test('a refused subscribe counts nobody, and is not sent again', async () => {
    const subscriptions = new ResourceSubscriptions(noopLogger);
    const target = recordingTarget();
    target.fail = true;
    await expect(subscriptions.add(a, target)).rejects.toThrow('refused');
    expect(subscriptions.uris('s')).toEqual([]);
    target.fail = false;
    await subscriptions.resend('s', target, 1_000);
    expect(target.sent).toEqual(['resources/subscribe watch://a']);
  });

  test('resend subscribes the new session again and survives a failure; a server that is down is not asked to unsubscribe', async () => {
    const subscriptions = new ResourceSubscriptions(noopLogger);
    const first = recordingTarget();
    await subscriptions.add(a, first);
    await subscriptions.add({ server: 's', uri: 'watch://b' }, first);
    const restarted = recordingTarget();
    restarted.fail = true;
    await subscriptions.resend('s', restarted, 1_000);
    expect(restarted.sent.sort()).toEqual(['resources/subscribe watch://a', 'resources/subscribe watch://b']);
    // Still subscribed: the next session is asked again.
    expect(subscriptions.uris('s')).toEqual(['watch://a', 'watch://b']);
    expect(subscriptions.find('watch://a')).toEqual(a);
    expect(await subscriptions.remove(a, undefined)).toBe(true);
    subscriptions.forget('s');
    expect(subscriptions.find('watch://b')).toBeUndefined();
  });
});

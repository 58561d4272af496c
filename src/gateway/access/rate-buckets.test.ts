import { describe, expect, it } from 'vitest';
import { MemoryBucketStore } from './rate-buckets.js';

describe('MemoryBucketStore', () => {
  it('gives perMinute tokens, refuses the next with when to retry, and refills evenly', async () => {
    const store = new MemoryBucketStore();
    const bucket = [{ key: 'a', perMinute: 3 }];
    for (let i = 0; i < 3; i++) expect(await store.take(bucket, 1_000)).toEqual({ ok: true });
    expect(await store.take(bucket, 1_000)).toEqual({ ok: false, key: 'a', retryAfterMs: 20_000 });
    expect(await store.take(bucket, 11_000)).toEqual({ ok: false, key: 'a', retryAfterMs: 10_000 });
    expect(await store.take(bucket, 21_000)).toEqual({ ok: true });
    // Never more than perMinute, however long it waited.
    for (let i = 0; i < 3; i++) expect((await store.take(bucket, 10_000_000)).ok).toBe(true);
    expect((await store.take(bucket, 10_000_000)).ok).toBe(false);
  });

  it('takes from every bucket or from none', async () => {
    const store = new MemoryBucketStore();
    const small = { key: 'small', perMinute: 1 };
    const big = { key: 'big', perMinute: 2 };
    expect((await store.take([big, small], 0)).ok).toBe(true);
    expect(await store.take([big, small], 0)).toMatchObject({ ok: false, key: 'small' });
    // The refused call took nothing from `big`: one token is left there.
    expect((await store.take([big], 0)).ok).toBe(true);
    expect((await store.take([big], 0)).ok).toBe(false);
  });
});

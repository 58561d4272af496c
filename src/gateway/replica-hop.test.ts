import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { isSwitchboardError } from '../errors.js';
import type { ReplicaRecord } from '../registry/index.js';
import { HOP_HEADER, HOP_VALIDITY_MS, ReplicaHop, ownerOfState, type HopRequest } from './replica-hop.js';

const key = randomBytes(32);
const owner = randomUUID();
const request: HopRequest = { method: 'POST', target: '/mcp', userId: 'u1', body: '{"jsonrpc":"2.0","id":1}' };

function hopWith(replicas: ReplicaRecord[], fetchImpl: typeof fetch = fetch, hopKey = key): ReplicaHop {
  return new ReplicaHop(randomUUID(), hopKey, { replicas: async () => replicas, now: () => Date.now() }, fetchImpl);
}

describe('ReplicaHop', () => {
  test('a hop verifies for exactly the request, user and body it was made for, within its validity, with the cluster key', () => {
    const hop = hopWith([]);
    const now = Date.now();
    const header = hop.sign(request, now);
    expect(hop.verify(header, request, now)).toBe(true);
    // Any replica with the same key verifies it.
    expect(hopWith([]).verify(header, request, now)).toBe(true);
    expect(hop.verify(header, { ...request, userId: 'u2' }, now)).toBe(false);
    expect(hop.verify(header, { ...request, body: '{"jsonrpc":"2.0","id":2}' }, now)).toBe(false);
    expect(hop.verify(header, { ...request, target: '/mcp/e/other' }, now)).toBe(false);
    expect(hop.verify(header, { ...request, method: 'GET' }, now)).toBe(false);
    expect(hop.verify(header, request, now + HOP_VALIDITY_MS + 1)).toBe(false);
    expect(hopWith([], fetch, randomBytes(32)).verify(header, request, now)).toBe(false);
    expect(hop.verify(`v1.${now}.${'A'.repeat(43)}`, request, now)).toBe(false);
    expect(hop.verify('forged', request, now)).toBe(false);
  });

  test("hops are timed on the database's clock: a replica whose own clock runs a minute ahead accepts a fresh hop", () => {
    const realNow = Date.now;
    // Both replicas read the database's time through their cluster store (as each heartbeat corrects it).
    const databaseNow = (): number => realNow();
    const signer = new ReplicaHop(randomUUID(), key, { replicas: async () => [], now: databaseNow });
    const header = signer.sign(request);
    try {
      Date.now = () => realNow() + 60_000;
      const skewed = new ReplicaHop(randomUUID(), key, { replicas: async () => [], now: databaseNow });
      expect(skewed.verify(header, request)).toBe(true);
    } finally {
      Date.now = realNow;
    }
  });

  test('the owner of a state is the replica id in front of it; states without one belong to nobody', () => {
    expect(ownerOfState(`${owner}.abc`)).toBe(owner);
    expect(ownerOfState('abc')).toBeUndefined();
    expect(ownerOfState('not-a-uuid.abc')).toBeUndefined();
    const hop = hopWith([]);
    expect(hop.isForeign(`${owner}.abc`)).toBe(true);
    expect(hop.isForeign(`${hop.replicaId}.abc`)).toBe(false);
    expect(hop.isForeign('abc')).toBe(false);
  });

  test('forwarding signs the request for the owner; an owner not live, or not answering, is CALL_INTERRUPTED naming it', async () => {
    const seen: Array<{ url: string; hop: string | null; authorization: string | null }> = [];
    const answering: typeof fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      seen.push({ url: String(input), hop: headers.get(HOP_HEADER), authorization: headers.get('authorization') });
      return new Response('{"ok":true}', { headers: { 'content-type': 'application/json', connection: 'close' } });
    };
    const live: ReplicaRecord = { id: owner, url: 'http://127.0.0.1:1234', startedAt: '', lastSeen: '' };
    const hop = hopWith([live], answering);
    const incoming = new Request('http://front/mcp', { method: 'POST', headers: { authorization: 'Bearer t', 'x-other': 'dropped' }, body: request.body });
    const answer = await hop.forward(owner, incoming, request, { noun: 'call', hint: 'call it again' });
    expect(await answer.json()).toEqual({ ok: true });
    expect(answer.headers.get('connection')).toBeNull();
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe('http://127.0.0.1:1234/mcp');
    expect(seen[0]?.authorization).toBe('Bearer t');
    expect(hop.verify(seen[0]?.hop ?? '', request)).toBe(true);

    const gone = await hopWith([]).forward(owner, incoming, request, { noun: 'call', hint: 'call it again' }).catch((error: unknown) => error);
    expect(isSwitchboardError(gone) && gone.code).toBe('CALL_INTERRUPTED');
    expect(isSwitchboardError(gone) ? gone.message : '').toContain(`replica ${owner}`);
    const refusing = hopWith([live], async () => Promise.reject(new TypeError('fetch failed: ECONNREFUSED')));
    const refused = await refusing.forward(owner, incoming, request, { noun: 'call', hint: 'call it again' }).catch((error: unknown) => error);
    expect(isSwitchboardError(refused) && refused.code).toBe('CALL_INTERRUPTED');
    expect(isSwitchboardError(refused) && refused.hint).toBe('call it again');
  });
});

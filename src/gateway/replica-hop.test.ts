import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { isSwitchboardError } from '../errors.js';
import type { ReplicaRecord } from '../registry/index.js';
import { HOP_HEADER, HOP_VALIDITY_MS, ReplicaHop, hopRefusal, ownerOfState, type HopRequest } from './replica-hop.js';

const key = randomBytes(32);
const owner = randomUUID();
const request: HopRequest = { method: 'POST', target: '/mcp', userId: 'u1', body: '{"jsonrpc":"2.0","id":1}' };

function hopWith(replicas: ReplicaRecord[], fetchImpl: typeof fetch = fetch, hopKey = key, replicaId = randomUUID()): ReplicaHop {
  return new ReplicaHop(replicaId, hopKey, { replicas: async () => replicas, now: () => Date.now() }, fetchImpl);
}

describe('ReplicaHop', () => {
  test('a hop verifies at the replica it names, for exactly the request, user and body it was made for, within its validity, with the cluster key', () => {
    const signer = hopWith([]);
    const now = Date.now();
    const header = signer.sign(request, owner, now);
    // Each refusal is checked on a fresh replica (an accepted hop is used up).
    const at = (): ReplicaHop => hopWith([], fetch, key, owner);
    expect(at().verify(header, { ...request, userId: 'u2' }, now)).toBe('refused');
    expect(at().verify(header, { ...request, body: '{"jsonrpc":"2.0","id":2}' }, now)).toBe('refused');
    expect(at().verify(header, { ...request, target: '/mcp/e/other' }, now)).toBe('refused');
    expect(at().verify(header, { ...request, method: 'GET' }, now)).toBe('refused');
    expect(at().verify(header, request, now + HOP_VALIDITY_MS + 1)).toBe('refused');
    expect(hopWith([], fetch, randomBytes(32), owner).verify(header, request, now)).toBe('refused');
    // Another replica id in the header, or a forged MAC, a changed time, an old format: not this cluster's.
    expect(at().verify(header.replace(owner, randomUUID()), request, now)).toBe('refused');
    expect(at().verify(`v2.${now}.${'A'.repeat(22)}.${owner}.${'A'.repeat(43)}`, request, now)).toBe('refused');
    expect(at().verify(header.replace(/^v2\.\d+/, `v2.${now + 1}`), request, now)).toBe('refused');
    expect(at().verify(`v1.${now}.${'A'.repeat(43)}`, request, now)).toBe('refused');
    expect(at().verify('forged', request, now)).toBe('refused');
    // A genuine hop for another replica (gone, its address taken by this one) is told apart, and grants nothing here.
    expect(hopWith([]).verify(header, request, now)).toBe('elsewhere');
    expect(signer.verify(header, request, now)).toBe('elsewhere');
    expect(at().verify(header, request, now)).toBe('accepted');
  });

  test('a hop is accepted once: sent again it is refused, and nonces are forgotten once their hops are too old to verify', () => {
    const signer = hopWith([]);
    const receiver = hopWith([], fetch, key, owner);
    const now = Date.now();
    const header = signer.sign(request, owner, now);
    expect(receiver.verify(header, request, now)).toBe('accepted');
    expect(receiver.verify(header, request, now + 1_000)).toBe('refused');
    expect(receiver.verify(header, request, now + HOP_VALIDITY_MS)).toBe('refused');
    // A new hop for the same request has its own nonce.
    expect(receiver.verify(signer.sign(request, owner, now), request, now)).toBe('accepted');
    // Past the window the old nonces are dropped (their hops fail by age), and fresh hops still verify.
    const later = now + 2 * HOP_VALIDITY_MS;
    expect(receiver.verify(header, request, later)).toBe('refused');
    expect(receiver.remembered).toBe(2);
    expect(receiver.verify(signer.sign(request, owner, later), request, later)).toBe('accepted');
    expect(receiver.remembered).toBe(1);
    // The clock stepping back does not bring a forgotten hop back: ages are judged on the latest time seen too.
    expect(receiver.verify(header, request, now + HOP_VALIDITY_MS - 1)).toBe('refused');
  });

  test('a hop of an earlier version is refused with a reason that says so', () => {
    expect(hopRefusal(`v1.${Date.now()}.${'A'.repeat(43)}`)).toContain('replica of an earlier version');
    expect(hopRefusal('forged')).toContain('not signed by this cluster');
    expect(hopRefusal('forged', 'redirect')).toBe('this redirect carries a replica-to-replica hop header that is not signed by this cluster');
  });

  test("hops are timed on the database's clock: a replica whose own clock runs a minute ahead accepts a fresh hop", () => {
    const realNow = Date.now;
    // Both replicas read the database's time through their cluster store (as each heartbeat corrects it).
    const databaseNow = (): number => realNow();
    const signer = new ReplicaHop(randomUUID(), key, { replicas: async () => [], now: databaseNow });
    const header = signer.sign(request, owner);
    try {
      Date.now = () => realNow() + 60_000;
      const skewed = new ReplicaHop(owner, key, { replicas: async () => [], now: databaseNow });
      expect(skewed.verify(header, request)).toBe('accepted');
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
    expect(hopWith([], fetch, key, owner).verify(seen[0]?.hop ?? '', request)).toBe('accepted');

    const gone = await hopWith([]).forward(owner, incoming, request, { noun: 'call', hint: 'call it again' }).catch((error: unknown) => error);
    expect(isSwitchboardError(gone) && gone.code).toBe('CALL_INTERRUPTED');
    expect(isSwitchboardError(gone) ? gone.message : '').toContain(`replica ${owner}`);
    const refusing = hopWith([live], async () => Promise.reject(new TypeError('fetch failed: ECONNREFUSED')));
    const refused = await refusing.forward(owner, incoming, request, { noun: 'call', hint: 'call it again' }).catch((error: unknown) => error);
    expect(isSwitchboardError(refused) && refused.code).toBe('CALL_INTERRUPTED');
    expect(isSwitchboardError(refused) && refused.hint).toBe('call it again');
  });
});

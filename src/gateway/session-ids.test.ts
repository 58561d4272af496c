import { randomBytes } from 'node:crypto';
import { expect, test } from 'vitest';
import type { RegistryUser } from '../registry/index.js';
import { SessionIds } from './session-ids.js';
import { SESSION_MAX_AGE_MS, SessionSeal } from './session-seal.js';

const user = { id: 'u1', name: 'tess' } as unknown as RegistryUser;
const initialize = { params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'client', version: '1' } } };

test("a session id is stamped and judged on the database's clock, whatever the replica's own clock says", async () => {
  const realNow = Date.now;
  // The database's clock, as each replica's heartbeat measures it.
  const cluster = { now: (): number => realNow(), endSession: async (): Promise<void> => {}, endedAmong: async (): Promise<Set<string>> => new Set() };
  const ids = new SessionIds(new SessionSeal(randomBytes(32)), cluster);
  try {
    // Minted on a replica whose own clock runs an hour ahead: the id must not live an hour longer elsewhere.
    Date.now = () => realNow() + 3_600_000;
    const id = ids.mint(user, initialize);
    const read = await ids.read(id, user);
    expect(read.kind).toBe('resume');
    expect(read.kind === 'resume' ? Math.abs(read.state.issuedAt - realNow()) : Number.NaN).toBeLessThan(5_000);
    // Resumed on a replica whose own clock is past the id's age: the database says it is seconds old.
    Date.now = () => realNow() + SESSION_MAX_AGE_MS + 60_000;
    expect((await ids.read(id, user)).kind).toBe('resume');
  } finally {
    Date.now = realNow;
  }
});

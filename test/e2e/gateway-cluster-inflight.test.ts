/**
 * In-flight state in a gateway cluster (issue 20, "done when" 3 and the OAuth half of 4): three
 * replicas of the built `switchboard serve` on one PostgreSQL database behind a real HAProxy
 * (deploy/haproxy.cfg's round-robin backend). Each request that must reach a given replica is sent
 * to it directly (the replica's own URL), so the test decides where each round lands.
 * a. A 2026-07-28 client (SDK v2, auto negotiation) answers an elicitation; its retry is sent to
 *    another replica than the one holding the call (named in the requestState) and completes there.
 *    Another user retrying with the same state through a third replica gets nothing of it.
 * b. An upstream OAuth login started through HAProxy completes with the browser's redirect sent to
 *    another replica than the one holding the login.
 * c. A 2025 session's `notifications/cancelled` sent to another replica stops the call running on the
 *    first one (the fast path's calls and the SDK's).
 *    Its answer to an elicitation sent on the call's stream, posted to another replica, reaches the call.
 * d. A request with a forged or unsigned replica-to-replica hop header is refused (403); a genuine hop for a
 *    replica that is gone ends its call with CALL_INTERRUPTED, and a hop is accepted once.
 * e. (last) The replica holding an `input_required` call and a login is SIGKILLed: the retry and the
 *    redirect sent elsewhere end at once with CALL_INTERRUPTED naming it, never a hang.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport, type FetchLike } from '@modelcontextprotocol/client';
import { HOP_KEY_PURPOSE, ReplicaHop } from '../../src/gateway/replica-hop.js';
import { SecretBox } from '../../src/registry/secret-box.js';
import { ServerRegistry } from '../../src/registry/server-registry.js';
import { startOAuthProtectedServer, type OAuthFixture } from '../fixtures/servers/oauth-protected-server.mjs';
import { FIXTURES, KITCHEN_SINK, freePort } from '../helpers/fixtures.js';
import { newToken } from '../helpers/gateway-process.js';
import { haproxyMissing, startHaproxy, type RunningHaproxy } from '../helpers/haproxy.js';
import { waitFor } from '../helpers/processes.js';
import { createTestDatabase, postgresUnavailableReason, type TestDatabase } from '../helpers/registry-backends.js';
import { startReplica, type ReplicaProcess } from '../helpers/replica-process.js';
import { deployedBackend } from '../helpers/cluster-test-bed.js';

const reason = process.env.CI === 'true' ? undefined : ((await postgresUnavailableReason()) ?? haproxyMissing());
const ASKING_SERVER = `${FIXTURES}/asking-server.mjs`;
const HOP_HEADER = 'x-switchboard-hop';

/** A replica with its cluster id. */
interface Member {
  process: ReplicaProcess;
  id: string;
}

/** The replica id in front of a state (`<id>.<random>`). */
function ownerOf(state: string): string {
  return state.slice(0, state.indexOf('.'));
}

function bodyOf(init: RequestInit | undefined): string {
  return typeof init?.body === 'string' ? init.body : '';
}

/** The JSON-RPC messages of an SSE answer, read as they come: `next` waits (bounded) for one that matches. */
function sseMessages(response: Response): { next(matches: (message: Record<string, unknown>) => boolean, timeoutMs: number): Promise<Record<string, unknown>>; close(): Promise<void> } {
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  const queued: Array<Record<string, unknown>> = [];
  const take = (matches: (message: Record<string, unknown>) => boolean): Record<string, unknown> | undefined => {
    const index = queued.findIndex(matches);
    return index < 0 ? undefined : queued.splice(index, 1)[0];
  };
  return {
    async next(matches, timeoutMs) {
      if (reader === undefined) throw new Error('no body');
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = take(matches);
        if (found !== undefined) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching message within ${timeoutMs} ms (got ${JSON.stringify(queued)})`);
        let timer: NodeJS.Timeout | undefined;
        const chunk = await Promise.race([reader.read(), new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no matching message within ${timeoutMs} ms`)), left)))]).finally(() => clearTimeout(timer));
        if (chunk.done) throw new Error(`the stream ended without a matching message (got ${JSON.stringify(queued)})`);
        buffered += chunk.value;
        const events = buffered.split('\n\n');
        buffered = events.pop() ?? '';
        for (const event of events) {
          const data = event.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('');
          if (data !== '') queued.push(JSON.parse(data) as Record<string, unknown>);
        }
      }
    },
    async close() {
      await reader?.cancel().catch(() => {});
    },
  };
}

describe.skipIf(reason !== undefined)(`in-flight state across three replicas behind HAProxy${reason === undefined ? '' : ` (skipped: ${reason})`}`, () => {
  let database: TestDatabase;
  let dir: string;
  let config: string;
  let registry: ServerRegistry;
  let haproxy: RunningHaproxy;
  let fixture: OAuthFixture;
  const members: Member[] = [];
  const clients: V2Client[] = [];
  const adminToken = newToken('admin');
  const secretKey = SecretBox.formatKey(SecretBox.generateKey());
  let tess: string;
  let rita: string;
  let ritaId: string;

  const member = (index: number): Member => {
    const found = members[index];
    if (found === undefined) throw new Error(`no replica ${index}`);
    return found;
  };
  const byId = (id: string): Member => {
    const found = members.find((candidate) => candidate.id === id);
    if (found === undefined) throw new Error(`no replica ${id}`);
    return found;
  };
  const inFlight = async (replica: Member): Promise<number> => {
    const text = await (await fetch(`${replica.process.url}/metrics`, { headers: { authorization: `Bearer ${adminToken}` } })).text();
    return Number(/^switchboard_calls_in_flight(?:\{replica="[^"]*"\})? (\d+)/m.exec(text)?.[1] ?? -1);
  };

  /**
   * A 2026-07-28 client whose requests go to `first`; a retry (a request carrying `requestState`)
   * goes where `retryTo(owner)` says. `landed` records the replica of each retry.
   */
  async function modernClient(token: string, first: Member, retryTo: (owner: string) => Member, landed: Array<{ owner: string; target: string }>): Promise<V2Client> {
    const routed: FetchLike = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const state = /"requestState":"([^"]+)"/.exec(bodyOf(init))?.[1];
      const target = state === undefined ? first : retryTo(ownerOf(state));
      if (state !== undefined) landed.push({ owner: ownerOf(state), target: target.id });
      return fetch(new URL(`${url.pathname}${url.search}`, target.process.url), init);
    };
    const client = new V2Client({ name: 'cluster-inflight-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: 'auto' } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Grace' } }));
    await client.connect(new V2HttpTransport(new URL(`${first.process.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } }, fetch: routed }));
    clients.push(client);
    return client;
  }

  /** The raw 2026-07-28 `tools/call` of `ask_name` to `replica`: its input_required answer. */
  async function askRaw(replica: Member, token: string, extra: Record<string, unknown> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
    const response = await fetch(`${replica.process.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'asking__ask_name' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'asking__ask_name', arguments: {}, _meta: meta, ...extra } }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /** A login of tess to `remote` started at `url`: the authorization server approves at once; the redirect and the browser's cookie. */
  async function startLogin(url: string): Promise<{ back: URL; cookie: string; owner: string }> {
    const started = await fetch(`${url}/api/servers/remote/login`, { method: 'POST', headers: { authorization: `Bearer ${tess}` } });
    expect(started.status, await started.clone().text()).toBe(200);
    const { authorizationUrl } = (await started.json()) as { authorizationUrl: string };
    const cookie = (started.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    const approval = await fetch(authorizationUrl, { redirect: 'manual' });
    const back = new URL(approval.headers.get('location') ?? '');
    return { back, cookie, owner: ownerOf(back.searchParams.get('state') ?? '') };
  }

  /** The same redirect, sent to `replica` instead. */
  function redirectTo(back: URL, replica: Member): string {
    return `${replica.process.url}${back.pathname}${back.search}`;
  }

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    fixture = await startOAuthProtectedServer();
    dir = mkdtempSync(join(tmpdir(), 'sb-inflight-'));
    config = join(dir, 'switchboard.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { asking: { command: process.execPath, args: [ASKING_SERVER] }, sink: { command: process.execPath, args: [KITCHEN_SINK] } } }));
    const ports = [await freePort(), await freePort(), await freePort()];
    const start = (port: number): Promise<ReplicaProcess> => startReplica({ config, db: database.db, port, cwd: dir, token: adminToken, secretKey });
    // The first one migrates the database and creates the administrator; the others join it.
    const started = [await start(ports[0] ?? 0), ...(await Promise.all(ports.slice(1).map((port) => start(port))))];
    for (const replica of started) {
      const { replica: id } = (await (await fetch(`${replica.url}/api/cluster`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as { replica: string };
      members.push({ process: replica, id });
    }
    registry = await ServerRegistry.open({ db: database.db, secretKey, watch: false });
    tess = (await registry.tokens.create(await registry.users.add('tess'))).token;
    const ritaUser = await registry.users.add('rita');
    ritaId = ritaUser.id;
    rita = (await registry.tokens.create(ritaUser)).token;
    await registry.servers.add(null, 'remote', { url: fixture.url });
    haproxy = await startHaproxy([{ name: 'switchboard', lines: deployedBackend(ports) }]);
    await waitFor(async () => (await haproxy.servers()).filter((server) => server.status === 'UP').length === 3, 15_000, 'HAProxy to see three replicas up');
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    await haproxy?.close();
    await Promise.all(members.map((replica) => replica.process.close()));
    await registry?.close();
    await fixture?.close();
    await database?.drop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  test('an elicitation round whose retry lands on another replica completes; another user\'s retry with that state gets nothing', async () => {
    const landed: Array<{ owner: string; target: string }> = [];
    const first = member(0);
    const client = await modernClient(tess, first, (owner) => members.find((candidate) => candidate.id !== owner) ?? first, landed);
    expect(client.getProtocolEra()).toBe('modern');
    const result = await client.callTool({ name: 'asking__ask_name', arguments: {} });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'hello Grace' }] });
    // One round: the call was held by the replica that answered input_required, the retry went to another.
    expect(landed).toEqual([{ owner: first.id, target: expect.not.stringMatching(first.id) }]);
    console.log(`input_required held by replica ${members.indexOf(first) + 1}, retry served through replica ${members.indexOf(byId(landed[0]?.target ?? '')) + 1}`);

    // Rita retries with tess's state through a third replica: forwarded to the owner, which finds no call of hers.
    const asked = await askRaw(first, tess);
    const state = String((asked.body.result as { requestState?: unknown } | undefined)?.requestState ?? '');
    expect(ownerOf(state)).toBe(first.id);
    const third = member(2);
    const stolen = await askRaw(third, rita, { requestState: state, inputResponses: {} });
    expect(JSON.stringify(stolen.body)).toMatch(/unknown or has expired/);
    // Tess's own retry, through the second replica, still completes her call.
    const own = await askRaw(member(1), tess, { requestState: state, inputResponses: { q1: { action: 'accept', content: { name: 'Ada' } } } });
    expect(own.body).toMatchObject({ result: { content: [{ type: 'text', text: 'hello Ada' }] } });
  }, 60_000);

  test('an upstream OAuth login started through HAProxy completes through another replica than the one holding it', async () => {
    const { back, cookie, owner } = await startLogin(haproxy.url);
    expect(back.pathname).toBe('/oauth/callback');
    const other = members.find((candidate) => candidate.id !== owner) ?? member(0);
    expect(other.id).not.toBe(owner);
    const page = await fetch(redirectTo(back, other), { headers: { cookie } });
    const text = await page.text();
    expect(page.status, text).toBe(200);
    expect(text).toContain('You are logged in to “remote”');
    // The owner deleted the binding cookie; its answer came back through the other replica.
    expect(page.headers.getSetCookie().join('\n')).toMatch(/^sb_login_[\w-]+=;/m);
    expect(fixture.log.authorizations).toHaveLength(1);
    expect(fixture.log.tokenRequests.filter((request) => request.grantType === 'authorization_code')).toHaveLength(1);
    // The tokens are tess's: her call to the protected server works through the owner.
    await waitFor(async () => {
      const call = await fetch(`${byId(owner).process.url}/api/tools/whoami/call`, { method: 'POST', headers: { authorization: `Bearer ${tess}`, 'content-type': 'application/json' }, body: '{}' });
      return call.status === 200 && ((await call.json()) as { result?: { isError?: boolean } }).result?.isError === false;
    }, 15_000, 'tess\'s call to the server she logged in to');
  }, 60_000);

  test('a 2025 session\'s notifications/cancelled sent to another replica stops the call running on the first (fast path and SDK path)', async () => {
    const a = member(0);
    const b = member(1);
    const headers = (session?: string): Record<string, string> => ({ authorization: `Bearer ${tess}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(session === undefined ? {} : { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }) });
    const post = (replica: Member, body: unknown, session?: string, signal?: AbortSignal): Promise<Response> => fetch(`${replica.process.url}/mcp`, { method: 'POST', headers: headers(session), body: JSON.stringify(body), ...(signal === undefined ? {} : { signal }) });
    const opened = await post(a, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-2025', version: '1.0.0' } } });
    const session = opened.headers.get('mcp-session-id') ?? '';
    await opened.text();
    expect((await post(a, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);
    // Calls an earlier test may have left waiting on this replica are not this test's.
    const base = await inFlight(a);

    for (const [id, meta] of [[7, undefined], [8, { progressToken: 'p8' }]] as const) {
      const controller = new AbortController();
      const running = post(a, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'sink__sleep', arguments: { ms: 30_000 }, ...(meta === undefined ? {} : { _meta: meta }) } }, session, controller.signal).then((response) => response.text()).catch(() => 'aborted');
      await waitFor(async () => (await inFlight(a)) === base + 1, 10_000, `call ${id} to run on the first replica`);
      const cancelling = performance.now();
      const cancel = await post(b, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'the person stopped it' } }, session);
      expect(cancel.status).toBe(202);
      await waitFor(async () => (await inFlight(a)) === base, 5_000, `call ${id} on the first replica to stop after a cancellation sent to the second`);
      const ms = Math.round(performance.now() - cancelling);
      console.log(`call ${id} (${meta === undefined ? 'fast path' : 'SDK path'}) stopped ${ms} ms after its cancellation reached another replica`);
      expect(ms).toBeLessThan(2_000);
      // The fast path ends a cancelled call's stream without an answer; the SDK keeps it open: the client walks away.
      if (meta === undefined) expect(await running).not.toContain('"result"');
      controller.abort();
      await running;
    }
  }, 60_000);

  test('a 2025 session\'s answer to an elicitation, sent to another replica, reaches the call waiting for it on the first', async () => {
    const a = member(0);
    const b = member(1);
    const headers = (session?: string): Record<string, string> => ({ authorization: `Bearer ${tess}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(session === undefined ? {} : { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }) });
    const post = (replica: Member, body: unknown, session?: string): Promise<Response> => fetch(`${replica.process.url}/mcp`, { method: 'POST', headers: headers(session), body: JSON.stringify(body) });
    const opened = await post(a, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 'raw-2025-asking', version: '1.0.0' } } });
    const session = opened.headers.get('mcp-session-id') ?? '';
    await opened.text();
    expect((await post(a, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);
    const call = await post(a, { jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'asking__ask_name', arguments: {} } }, session);
    const stream = sseMessages(call);
    try {
      const question = await stream.next((message) => message.method === 'elicitation/create', 10_000);
      const answered = performance.now();
      const answer = await post(b, { jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { name: 'Lin' } } }, session);
      expect(answer.status).toBe(202);
      const result = await stream.next((message) => message.id === 11, 5_000);
      console.log(`an elicitation answer sent to another replica resumed the call in ${Math.round(performance.now() - answered)} ms`);
      expect(result).toMatchObject({ result: { content: [{ type: 'text', text: 'hello Lin' }] } });
    } finally {
      await stream.close();
    }
  }, 60_000);

  test('a forged or unsigned replica-to-replica hop is refused, on /mcp and on /oauth/callback', async () => {
    const target = member(1);
    const forged = `v2.${Date.now()}.${'A'.repeat(22)}.${target.id}.${'A'.repeat(43)}`;
    for (const hop of [forged, 'unsigned']) {
      const answer = await fetch(`${target.process.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${rita}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', [HOP_HEADER]: hop },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask_name', arguments: {}, requestState: `${member(0).id}.whatever` } }),
      });
      expect(answer.status).toBe(403);
      expect(await answer.json()).toMatchObject({ error: { data: { code: 'FORBIDDEN' } } });
      const callback = await fetch(`${target.process.url}/oauth/callback?code=x&state=${member(0).id}.y`, { headers: { [HOP_HEADER]: hop } });
      expect(callback.status).toBe(403);
      expect(await callback.text()).toContain('not signed by this cluster');
    }
  });

  test('a genuine hop for a replica that is gone, landing on a replica now at its address, ends with CALL_INTERRUPTED, not 403; sent again it is refused', async () => {
    const target = member(1);
    const gone = randomUUID();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'asking__ask_name', arguments: {}, requestState: `${gone}.whatever` } });
    // Signed as a replica of this cluster signs a hop to `gone` (the key is the cluster's, derived from its secret key).
    const signer = new ReplicaHop(randomUUID(), registry.derivedKey(HOP_KEY_PURPOSE), registry.cluster);
    const headers = { authorization: `Bearer ${rita}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', [HOP_HEADER]: signer.sign({ method: 'POST', target: '/mcp', userId: ritaId, body }, gone) };
    const answer = await fetch(`${target.process.url}/mcp`, { method: 'POST', headers, body });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ id: 7, error: { data: { code: 'CALL_INTERRUPTED' } } });
    // A hop signed for this replica is accepted once (here: a retry whose state names no live replica), then refused.
    const own = { ...headers, [HOP_HEADER]: signer.sign({ method: 'POST', target: '/mcp', userId: ritaId, body }, target.id) };
    expect((await fetch(`${target.process.url}/mcp`, { method: 'POST', headers: own, body })).status).toBe(200);
    expect((await fetch(`${target.process.url}/mcp`, { method: 'POST', headers: own, body })).status).toBe(403);
  });

  test('when the replica holding a call and a login is SIGKILLed, the retry and the redirect sent elsewhere end at once with CALL_INTERRUPTED naming it', async () => {
    const victim = member(2);
    const survivor = member(0);
    const asked = await askRaw(victim, tess);
    const state = String((asked.body.result as { requestState?: unknown } | undefined)?.requestState ?? '');
    expect(ownerOf(state)).toBe(victim.id);
    const login = await startLogin(victim.process.url);
    expect(login.owner).toBe(victim.id);
    await victim.process.kill();

    const retrying = performance.now();
    const retry = await askRaw(survivor, tess, { requestState: state, inputResponses: { q1: { action: 'accept', content: { name: 'Ada' } } } });
    const retryMs = Math.round(performance.now() - retrying);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.result, JSON.stringify(retry.body)).toBeUndefined();
    expect(retry.body).toMatchObject({ id: 1, error: { data: { code: 'CALL_INTERRUPTED', replica: victim.id, hint: expect.stringMatching(/call the tool again/) } } });
    expect(JSON.stringify(retry.body)).toContain(`this call was interrupted: the gateway replica ${victim.id}`);

    const redirecting = performance.now();
    const page = await fetch(redirectTo(login.back, survivor), { headers: { cookie: login.cookie } });
    const redirectMs = Math.round(performance.now() - redirecting);
    expect(page.status).toBe(503);
    const text = await page.text();
    expect(text).toContain(`this login was interrupted: the gateway replica ${victim.id}`);
    expect(text).toContain('start the login again');
    console.log(`after SIGKILL of the owner: retry answered CALL_INTERRUPTED in ${retryMs} ms, redirect in ${redirectMs} ms`);
    expect(retryMs).toBeLessThan(3_000);
    expect(redirectMs).toBeLessThan(3_000);

    // Once its heartbeat expired it is out of the cluster: the same answer, from the replicas table.
    await waitFor(async () => {
      const { replicas } = (await (await fetch(`${survivor.process.url}/api/cluster`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as { replicas: Array<{ id: string }> };
      return !replicas.some((replica) => replica.id === victim.id);
    }, 20_000, 'the killed replica to leave the cluster');
    const later = await askRaw(member(1), tess, { requestState: state, inputResponses: {} });
    expect(later.body).toMatchObject({ error: { message: expect.stringContaining('is no longer in the cluster'), data: { code: 'CALL_INTERRUPTED' } } });
  }, 60_000);
});

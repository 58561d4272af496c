/**
 * A user's own endpoint cannot undo the administrator's policy, over a real gateway and a real
 * upstream: the tool rules and rate limits judge a tool by what it is, not by the name the user gave it
 * in their endpoint; a user's endpoint serves its owner alone (it cannot be opened to others) and only
 * while `/mcp` is on for them — with it off, the administrator's endpoints (and their approvals) are the
 * way in; a tool's other names (the prefixed form, an earlier name) take from the same rate limit; and
 * `/api/events` tells a tenant that access changed, not the names of others' endpoints and groups.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openEventStream } from '../../helpers/event-stream.js';
import { KITCHEN_SINK } from '../../helpers/fixtures.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { waitFor } from '../../helpers/processes.js';
import { backendsToTest, createTestDatabase, type TestDatabase } from '../../helpers/registry-backends.js';

for (const { kind, skip } of await backendsToTest()) {
  describe.skipIf(skip !== undefined)(`a user's own endpoint and the administrator's policy, registry on ${kind}${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
    let database: TestDatabase;
    let gateway: TestGateway;
    const call = (tool: string, token: string, args: Record<string, unknown>, endpoint?: string): Promise<Response> =>
      gateway.api(`/api/tools/${tool}/call${endpoint === undefined ? '' : `?endpoint=${endpoint}`}`, { token, body: { arguments: args } });
    const listed = async (token: string, endpoint?: string): Promise<string[]> => {
      const answer = await gateway.api(`/api/tools${endpoint === undefined ? '' : `?endpoint=${endpoint}`}`, { token });
      expect(answer.status, await answer.clone().text()).toBe(200);
      return ((await answer.json()) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name).sort();
    };

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      gateway = await startTestGateway({ db: database.db, servers: { sink: { command: process.execPath, args: [KITCHEN_SINK] } } });
    }, 60_000);

    afterAll(async () => {
      await gateway?.close();
      await database?.drop();
    });

    test('an allow-list holds on the user\'s own endpoint: a tool renamed to an allowed name is still the tool it is', async () => {
      const bob = await gateway.addUser('bob');
      const rule = await gateway.api('/api/rules', { body: { scope: { kind: 'user', name: 'bob' }, effect: 'allow', tools: ['echo'] } });
      expect(rule.status).toBe(201);
      try {
        expect(await listed(bob.token)).toEqual(['echo']);
        const put = await gateway.api('/api/endpoints/bobs', { method: 'PUT', token: bob.token, body: { tools: ['add', 'echo'], renames: { 'sink/add': 'echo_fast', 'sink/echo': 'say' } } });
        expect(put.status, await put.clone().text()).toBe(201);
        // `add` is outside the allow-list under any name; `echo` keeps its permission under its new one.
        expect(await listed(bob.token, 'bobs')).toEqual(['say']);
        expect((await call('echo_fast', bob.token, { a: 2, b: 3 }, 'bobs')).status).toBe(404);
        const said = await call('say', bob.token, { message: 'allowed' }, 'bobs');
        expect(await said.text()).toContain('allowed');
        // Renamed to the allowed name itself: not listed, not callable.
        expect((await gateway.api('/api/endpoints/bobs', { method: 'PUT', token: bob.token, body: { tools: ['add'], renames: { 'sink/add': 'echo' } } })).status).toBe(200);
        expect(await listed(bob.token, 'bobs')).toEqual([]);
        expect((await call('echo', bob.token, { a: 2, b: 3 }, 'bobs')).status).toBe(404);
      } finally {
        await gateway.api(`/api/rules/${((await rule.json()) as { rule: { id: string } }).rule.id}`, { method: 'DELETE' });
      }
    });

    test('a user\'s endpoint is its owner\'s alone, and with /mcp off the administrator\'s endpoints (and their approvals) are the way in', async () => {
      const carol = await gateway.addUser('carol');
      const dave = await gateway.addUser('dave');
      // Opening one's endpoint to others is the administrator's to do.
      const opened = await gateway.api('/api/endpoints/carols', { method: 'PUT', token: carol.token, body: { access: { users: ['dave'] } } });
      expect(opened.status).toBe(400);
      expect(await opened.text()).toMatch(/only an administrator can open an endpoint to other users or groups/);
      expect((await gateway.api('/api/endpoints/carols', { method: 'PUT', token: carol.token, body: {} })).status).toBe(201);
      expect((await call('echo', carol.token, { message: 'mine' }, 'carols')).status).toBe(200);
      expect((await call('echo', dave.token, { message: 'hers' }, 'carols')).status).toBe(404);
      expect((await gateway.api('/api/endpoints/guarded', { method: 'PUT', body: { servers: ['sink'], access: { users: ['carol'] }, approval: { writes: true, timeoutSeconds: 0.5 } } })).status).toBe(201);
      expect((await gateway.api('/api/settings/everything', { method: 'PUT', body: { on: false } })).status).toBe(200);
      try {
        expect((await call('echo', carol.token, { message: 'plain' })).status).toBe(403);
        // The administrator's endpoint asks for approval of a write; nobody gives it.
        expect((await call('mixed', carol.token, {}, 'guarded')).status).toBe(403);
        // Her own endpoint does not serve while /mcp is off for her: no way around the approval.
        expect((await call('mixed', carol.token, {}, 'carols')).status).toBe(404);
        expect((await gateway.api('/api/tools?endpoint=carols', { token: carol.token })).status).toBe(404);
        const named = (await (await gateway.api('/api/endpoints', { token: carol.token })).json()) as { endpoints: Array<{ name: string }> };
        expect(named.endpoints.map((endpoint) => endpoint.name)).toEqual(['guarded']);
        const initialize = await fetch(`${gateway.url}/mcp/e/carols`, {
          method: 'POST',
          headers: { authorization: `Bearer ${carol.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
        });
        expect(initialize.status).toBe(404);
      } finally {
        await gateway.api('/api/settings/everything', { method: 'PUT', body: { on: true } });
        await gateway.api('/api/endpoints/guarded', { method: 'DELETE' });
      }
      // /mcp on again: hers serves her again.
      expect((await call('echo', carol.token, { message: 'back' }, 'carols')).status).toBe(200);
    });

    test('a rate limit counts a tool under every name it answers to: its prefixed form takes from the same bucket', async () => {
      const erin = await gateway.addUser('erin');
      const limit = await gateway.api('/api/limits', { body: { scope: { kind: 'user', name: 'erin' }, perMinute: 2 } });
      expect(limit.status).toBe(201);
      try {
        const statuses: number[] = [];
        for (const name of ['echo', 'sink__echo', 'sink__echo', 'echo']) statuses.push((await call(name, erin.token, { message: name })).status);
        expect(statuses).toEqual([200, 200, 429, 429]);
      } finally {
        await gateway.api(`/api/limits/${((await limit.json()) as { limit: { id: string } }).limit.id}`, { method: 'DELETE' });
      }
    });

    test('a tenant reads an administrator\'s endpoint they may use, but not who else may use it', async () => {
      await gateway.addUser('ivy');
      const jack = await gateway.addUser('jack');
      expect((await gateway.api('/api/endpoints/team', { method: 'PUT', body: { servers: ['sink'], access: { users: ['ivy', 'jack'], groups: ['secret-project'] } } })).status).toBe(201);
      try {
        const listed = await gateway.api('/api/endpoints', { token: jack.token });
        const detail = await gateway.api('/api/endpoints/team', { token: jack.token });
        for (const answer of [listed, detail]) {
          const text = await answer.text();
          expect(text).toContain('/mcp/e/team');
          expect(text).not.toContain('ivy');
          expect(text).not.toContain('secret-project');
        }
        // The administrator still reads it whole.
        expect(await (await gateway.api('/api/endpoints/team')).text()).toContain('secret-project');
      } finally {
        await gateway.api('/api/endpoints/team', { method: 'DELETE' });
      }
    });

    test('/api/tool-search counts the tools /mcp lists to the caller (after their rules), not the whole catalog', async () => {
      const hank = await gateway.addUser('hank');
      const whole = (await (await gateway.api('/api/tool-search', { token: hank.token })).json()) as { tools: number; estimatedTokens: number };
      expect(whole.tools).toBe((await listed(hank.token)).length);
      const rule = await gateway.api('/api/rules', { body: { scope: { kind: 'user', name: 'hank' }, effect: 'allow', tools: ['echo'] } });
      try {
        const narrowed = (await (await gateway.api('/api/tool-search', { token: hank.token })).json()) as { tools: number; estimatedTokens: number };
        expect(narrowed.tools).toBe(1);
        expect(narrowed.estimatedTokens).toBeLessThan(whole.estimatedTokens);
      } finally {
        await gateway.api(`/api/rules/${((await rule.json()) as { rule: { id: string } }).rule.id}`, { method: 'DELETE' });
      }
    });

    test('/api/events tells a tenant that access changed, but names another tenant\'s endpoint, an administrator\'s endpoint or a group only to administrators', async () => {
      const frank = await gateway.addUser('frank');
      const gina = await gateway.addUser('gina');
      const tenant = await openEventStream(gateway.url, frank.token);
      const admin = await openEventStream(gateway.url, gateway.adminToken);
      try {
        expect((await gateway.api('/api/endpoints/gina-private-plans', { method: 'PUT', token: gina.token, body: {} })).status).toBe(201);
        expect((await gateway.api('/api/endpoints/hr-payroll', { method: 'PUT', body: { access: { groups: ['hr'] } } })).status).toBe(201);
        expect((await gateway.api('/api/groups', { body: { name: 'layoffs-2026', members: ['gina'] } })).status).toBe(201);
        const secrets = ['gina-private-plans', 'hr-payroll', 'layoffs-2026'];
        // Both streams hear each change from the same registry event: once the administrator's has the last, the tenant's has had its chance.
        await waitFor(() => secrets.every((name) => admin.seen.some((event) => event.raw.includes(name))), 15_000, 'the administrator\'s stream to name every change');
        await waitFor(() => tenant.seen.filter((event) => event.event === 'servers-changed' && event.data.kind === 'access').length >= 3, 15_000, 'the tenant\'s stream to hear the three access changes');
        for (const name of secrets) expect(tenant.seen.map((event) => event.raw).join('\n'), name).not.toContain(name);
      } finally {
        await tenant.close();
        await admin.close();
        await gateway.api('/api/endpoints/gina-private-plans', { method: 'DELETE', token: gina.token });
        await gateway.api('/api/endpoints/hr-payroll', { method: 'DELETE' });
        await gateway.api('/api/groups/layoffs-2026', { method: 'DELETE' });
      }
    });
  });
}

import { describe, expect, test } from 'vitest';
import type { ServerStatus } from '../client/multi-server-client.js';
import { normalizeConfig } from '../config/normalize-config.js';
import { ErrorCode, SwitchboardError } from '../errors.js';
import type { RegistryUser, UserServerConfig } from '../registry/registry-types.js';
import { ADMIN_DETAIL_HINT, TenantDisclosure } from './tenant-disclosure.js';

const { config } = normalizeConfig(
  {
    mcpServers: {
      shared_url: { url: 'http://admin:pw-0123@127.0.0.1:9/mcp?api_key=key-4567&page=2' },
      shared_cmd: { command: 'node', args: ['server.js', 'echo', '--admin-token=tok-89ab'], env: { KEY: 'env-cdef' } },
      mine: { command: 'node', args: ['mine.js', '--my-token=own-1234'] },
      instance: { command: 'node', args: ['tpl.js', '--tpl-token=tpl-5678'] },
    },
  },
  { baseDir: '/' },
);

function disclosureFor(isAdmin: boolean): TenantDisclosure {
  const user: RegistryUser = { id: 'u', name: 'u', isAdmin, createdAt: '', updatedAt: '' };
  const userConfig: UserServerConfig = { user, config, tenantServers: new Set(['mine', 'instance']), templateServers: new Set(['instance']), policy: undefined, warnings: [] };
  return TenantDisclosure.of(userConfig);
}

const startError = (server: string, message: string, hint: string) => new SwitchboardError(ErrorCode.ServerStartFailed, message, { server, hint, details: { reason: 'exited', exitCode: 1, stderr: 'tok-89ab' } });

describe('TenantDisclosure', () => {
  test('a shared server\'s error loses stderr, arguments, env values and URL credentials', () => {
    const tenant = disclosureFor(false);
    const shown = tenant.error(startError('shared_cmd', 'server "shared_cmd" exited with code 1 during start-up; stderr:\n    tok-89ab env-cdef', 'run it by hand to see why: node server.js echo --admin-token=tok-89ab'));
    expect(shown).toMatchObject({ code: ErrorCode.ServerStartFailed, server: 'shared_cmd', message: 'server "shared_cmd" exited with code 1 during start-up', hint: ADMIN_DETAIL_HINT, details: { reason: 'exited', exitCode: 1 } });
    const url = tenant.error(startError('shared_url', 'cannot reach http://admin:pw-0123@127.0.0.1:9/mcp?api_key=key-4567&page=2 (pw-0123)', 'check the URL'));
    expect(url).toMatchObject({ message: 'cannot reach http://••••@127.0.0.1:9/mcp?api_key=••••&page=2 (••••)', hint: 'check the URL' });
  });

  test('plain-word arguments are left in messages (a tool may have that name)', () => {
    const down = new SwitchboardError(ErrorCode.ServerDisconnected, 'Tool "echo" belongs to server "shared_cmd", which is failed (tok-89ab).', { server: 'shared_cmd' });
    expect(disclosureFor(false).error(down)).toMatchObject({ message: 'Tool "echo" belongs to server "shared_cmd", which is failed (••••).' });
  });

  test('a template instance is hidden like a shared server; the tenant\'s own plain entry and everything for an admin are not', () => {
    const tenant = disclosureFor(false);
    expect(tenant.hides('instance')).toBe(true);
    expect(tenant.hides('mine')).toBe(false);
    expect(tenant.showsLog({ server: 'instance', source: 'stderr' })).toBe(false);
    expect(tenant.showsLog({ server: 'shared_cmd', source: 'mcp' })).toBe(true);
    expect(tenant.showsLog({ server: 'mine', source: 'stderr' })).toBe(true);
    const own = startError('mine', 'server "mine" exited; stderr:\n    own-1234', 'run it by hand to see why: node mine.js --my-token=own-1234');
    expect(tenant.error(own)).toBe(own);
    const admin = disclosureFor(true);
    const shared = startError('shared_cmd', 'x; stderr:\n    tok-89ab', 'run it by hand to see why: node server.js echo --admin-token=tok-89ab');
    expect(admin.error(shared)).toBe(shared);
    expect(admin.showsLog({ server: 'shared_cmd', source: 'stderr' })).toBe(true);
  });

  test('statuses: hidden servers\' errors redacted, stderr left out', () => {
    const statuses: ServerStatus[] = [
      { name: 'shared_cmd', state: 'failed', enabled: true, toolCount: 0, restarts: 0, error: { code: 'SERVER_START_FAILED', message: 'server "shared_cmd" exited; stderr:\n  tok-89ab', hint: 'run it by hand to see why: node server.js echo --admin-token=tok-89ab', stderr: 'tok-89ab' } },
      { name: 'mine', state: 'failed', enabled: true, toolCount: 0, restarts: 0, error: { code: 'SERVER_START_FAILED', message: 'm', stderr: 'own-1234' } },
    ];
    const [shared, mine] = disclosureFor(false).status(statuses);
    expect(shared?.error).toEqual({ code: 'SERVER_START_FAILED', message: 'server "shared_cmd" exited', hint: ADMIN_DETAIL_HINT });
    expect(mine).toBe(statuses[1]);
  });

  test('errors of other kinds and of no server pass unchanged', () => {
    const tenant = disclosureFor(false);
    const plain = new Error('x');
    expect(tenant.error(plain)).toBe(plain);
    const noServer = new SwitchboardError(ErrorCode.ToolNotFound, 'There is no tool named "x".');
    expect(tenant.error(noServer)).toBe(noServer);
  });
});

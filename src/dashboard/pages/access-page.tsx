/**
 * @module dashboard/pages/access-page
 * Who may call what: named endpoints (with their URL and the connection snippets of Claude Desktop,
 * Cursor and VS Code), groups, tool rules and rate limits, with add and remove. Non-admins see the
 * endpoints they may use.
 */

import { useState } from 'preact/hooks';
import type { EndpointView, LimitView, RuleView, ScopeView } from '../../contract/api-contract.js';
import { messageOf, Problem } from '../components/problem.js';
import { useSession } from '../state/session.js';
import { useLoader } from '../state/use-loader.js';

function scopeText(scope: ScopeView): string {
  return scope.kind === 'global' ? 'everyone' : `${scope.kind} ${scope.name}`;
}

function parseScope(text: string): ScopeView {
  const match = /^(endpoint|group|user):(.+)$/.exec(text.trim());
  if (match?.[1] === undefined || match[2] === undefined) return { kind: 'global' };
  return { kind: match[1] as 'endpoint' | 'group' | 'user', name: match[2] };
}

function globs(text: string): string[] | undefined {
  const list = text.split(',').map((item) => item.trim()).filter((item) => item !== '');
  return list.length === 0 ? undefined : list;
}

function ruleText(rule: RuleView): string {
  const tests = [...(rule.servers === undefined ? [] : [`servers ${rule.servers.join(', ')}`]), ...(rule.tools === undefined ? [] : [`tools ${rule.tools.join(', ')}`]), ...Object.entries(rule.annotations ?? {}).map(([key, value]) => `${key}=${String(value)}`)];
  return `${rule.effect} ${tests.length === 0 ? 'all tools' : tests.join(' ')} for ${scopeText(rule.scope)}`;
}

function limitText(limit: LimitView): string {
  return `${limit.perMinute} calls/min for ${scopeText(limit.scope)}${limit.tools === undefined ? '' : `, each tool of ${limit.tools.join(', ')}`}${limit.perCaller === true || limit.scope.kind === 'user' ? ', per caller' : ''}`;
}

function EndpointCard({ endpoint, onRemove }: { endpoint: EndpointView; onRemove?: () => void }) {
  return (
    <li class="card" aria-label={`endpoint ${endpoint.name}`}>
      <p>
        <strong>{endpoint.name}</strong> <code>{endpoint.url}</code>
      </p>
      {endpoint.description === undefined ? null : <p>{endpoint.description}</p>}
      <p class="hint">
        servers {(endpoint.servers ?? ['*']).join(', ')} · tools {(endpoint.tools ?? ['*']).join(', ')}
        {endpoint.annotations?.readOnlyHint === true ? ' · read-only' : ''}
        {endpoint.approval?.writes === true ? ' · writes need approval' : ''} · for {[...(endpoint.access?.users ?? []), ...(endpoint.access?.groups ?? []).map((group) => `group ${group}`)].join(', ') || 'admins'}
      </p>
      <details>
        <summary>Connect a client</summary>
        <p>Claude Desktop (claude_desktop_config.json)</p>
        <pre>{JSON.stringify(endpoint.snippets.claudeDesktop, null, 2)}</pre>
        <p>Cursor (.cursor/mcp.json)</p>
        <pre>{JSON.stringify(endpoint.snippets.cursor, null, 2)}</pre>
        <p>VS Code (.vscode/mcp.json)</p>
        <pre>{JSON.stringify(endpoint.snippets.vscode, null, 2)}</pre>
      </details>
      {onRemove === undefined ? null : <button type="button" class="danger quiet" onClick={onRemove}>Remove {endpoint.name}</button>}
    </li>
  );
}

export function AccessPage() {
  const { api, user } = useSession();
  const endpoints = useLoader(() => api.endpoints(), []);
  const admin = useLoader(async () => (user.admin ? { groups: (await api.groups()).groups, rules: (await api.rules()).rules, limits: (await api.limits()).limits } : undefined), []);
  const [failure, setFailure] = useState<unknown>(undefined);
  const [notice, setNotice] = useState('');
  const [endpointName, setEndpointName] = useState('');
  const [endpointJson, setEndpointJson] = useState('{\n  "servers": ["*"],\n  "annotations": { "readOnlyHint": true }\n}');
  const [groupName, setGroupName] = useState('');
  const [groupMembers, setGroupMembers] = useState('');
  const [rule, setRule] = useState({ effect: 'deny' as 'allow' | 'deny', scope: 'global', tools: '', servers: '', annotation: '' });
  const [limit, setLimit] = useState({ scope: 'global', perMinute: '60', tools: '', perCaller: true });

  const act = async (action: () => Promise<unknown>, done: string): Promise<void> => {
    setFailure(undefined);
    try {
      await action();
      setNotice(done);
      endpoints.reload();
      admin.reload();
    } catch (error) {
      setFailure(error);
      setNotice(`Failed: ${messageOf(error)}`);
    }
  };
  const saveEndpoint = (): Promise<void> =>
    act(async () => {
      let definition: unknown;
      try {
        definition = JSON.parse(endpointJson);
      } catch (error) {
        throw new Error(`the definition is not valid JSON: ${(error as Error).message}`);
      }
      await api.putEndpoint(endpointName.trim(), definition as Record<string, unknown>);
    }, `Saved endpoint ${endpointName}`);
  const annotations = rule.annotation === '' ? undefined : { [rule.annotation.replace(/^!/, '')]: !rule.annotation.startsWith('!') };
  const tools = globs(rule.tools);
  const servers = globs(rule.servers);
  const limitTools = globs(limit.tools);

  return (
    <>
      <p class="sr-only" role="status">{notice}</p>
      {notice === '' ? null : <p class="notice">{notice}</p>}
      <Problem error={failure ?? endpoints.error ?? admin.error} />
      <section aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading">Endpoints</h2>
        <p>/mcp (every tool) is {endpoints.data?.everything === false ? 'off' : 'on'}{user.admin ? '' : ' for you'}.</p>
        {user.admin ? (
          <button type="button" class="quiet" onClick={() => void act(() => api.setEverything(endpoints.data?.everything === false), 'Changed /mcp')}>
            {endpoints.data?.everything === false ? 'Turn /mcp on' : 'Turn /mcp off for non-admins'}
          </button>
        ) : null}
        <ul class="cards">
          {(endpoints.data?.endpoints ?? []).map((endpoint) => (
            <EndpointCard key={endpoint.name} endpoint={endpoint} {...(user.admin || endpoint.ownerId === user.id ? { onRemove: () => void act(() => api.removeEndpoint(endpoint.name), `Removed endpoint ${endpoint.name}`) } : {})} />
          ))}
        </ul>
        <form onSubmit={(event) => { event.preventDefault(); void saveEndpoint(); }}>
          <label>Endpoint name <input value={endpointName} onInput={(event) => setEndpointName(event.currentTarget.value)} required /></label>
          <label>Definition (JSON: servers, tools, annotations, renames, descriptions, naming, toolSearch, access, approval)
            <textarea rows={6} value={endpointJson} onInput={(event) => setEndpointJson(event.currentTarget.value)} />
          </label>
          <button type="submit">Save endpoint</button>
        </form>
      </section>
      {admin.data === undefined ? null : (
        <>
          <section aria-labelledby="groups-heading">
            <h2 id="groups-heading">Groups</h2>
            <ul>
              {admin.data.groups.map((group) => (
                <li key={group.name}>
                  <strong>{group.name}</strong>: {group.members.join(', ') || 'no members'}{' '}
                  <button type="button" class="quiet danger" onClick={() => void act(() => api.removeGroup(group.name), `Removed group ${group.name}`)}>Remove {group.name}</button>
                </li>
              ))}
            </ul>
            <form onSubmit={(event) => { event.preventDefault(); void act(() => api.addGroup(groupName.trim(), globs(groupMembers) ?? []), `Added group ${groupName}`); }}>
              <label>Group name <input value={groupName} onInput={(event) => setGroupName(event.currentTarget.value)} required /></label>
              <label>Members (comma-separated) <input value={groupMembers} onInput={(event) => setGroupMembers(event.currentTarget.value)} /></label>
              <button type="submit">Add group</button>
            </form>
          </section>
          <section aria-labelledby="rules-heading">
            <h2 id="rules-heading">Tool rules</h2>
            <p class="hint">Deny wins. Once an allow rule applies to someone, only the tools allow rules match are listed and callable.</p>
            <ul>
              {admin.data.rules.map((item) => (
                <li key={item.id}>
                  {ruleText(item)} <button type="button" class="quiet danger" onClick={() => void act(() => api.removeRule(item.id), 'Removed the rule')}>Remove</button>
                </li>
              ))}
            </ul>
            <form onSubmit={(event) => { event.preventDefault(); void act(() => api.addRule({ effect: rule.effect, scope: parseScope(rule.scope), ...(tools === undefined ? {} : { tools }), ...(servers === undefined ? {} : { servers }), ...(annotations === undefined ? {} : { annotations }) }), 'Added the rule'); }}>
              <label>Effect <select value={rule.effect} onChange={(event) => setRule({ ...rule, effect: event.currentTarget.value === 'allow' ? 'allow' : 'deny' })}><option value="deny">deny</option><option value="allow">allow</option></select></label>
              <label>Scope (global, endpoint:N, group:N, user:N) <input value={rule.scope} onInput={(event) => setRule({ ...rule, scope: event.currentTarget.value })} /></label>
              <label>Tools (globs) <input value={rule.tools} onInput={(event) => setRule({ ...rule, tools: event.currentTarget.value })} /></label>
              <label>Servers (globs) <input value={rule.servers} onInput={(event) => setRule({ ...rule, servers: event.currentTarget.value })} /></label>
              <label>Annotation
                <select value={rule.annotation} onChange={(event) => setRule({ ...rule, annotation: event.currentTarget.value })}>
                  <option value="">any</option><option value="readOnlyHint">read-only</option><option value="!readOnlyHint">may write</option><option value="destructiveHint">destructive</option><option value="openWorldHint">open world</option>
                </select>
              </label>
              <button type="submit">Add rule</button>
            </form>
          </section>
          <section aria-labelledby="limits-heading">
            <h2 id="limits-heading">Rate limits</h2>
            <ul>
              {admin.data.limits.map((item) => (
                <li key={item.id}>
                  {limitText(item)} <button type="button" class="quiet danger" onClick={() => void act(() => api.removeLimit(item.id), 'Removed the limit')}>Remove</button>
                </li>
              ))}
            </ul>
            <form onSubmit={(event) => { event.preventDefault(); void act(() => api.addLimit({ scope: parseScope(limit.scope), perMinute: Number(limit.perMinute), ...(limitTools === undefined ? {} : { tools: limitTools }), ...(limit.perCaller ? { perCaller: true } : {}) }), 'Added the limit'); }}>
              <label>Scope <input value={limit.scope} onInput={(event) => setLimit({ ...limit, scope: event.currentTarget.value })} /></label>
              <label>Calls per minute <input type="number" min={1} value={limit.perMinute} onInput={(event) => setLimit({ ...limit, perMinute: event.currentTarget.value })} /></label>
              <label>Tools (globs; a bucket per tool) <input value={limit.tools} onInput={(event) => setLimit({ ...limit, tools: event.currentTarget.value })} /></label>
              <label><input type="checkbox" checked={limit.perCaller} onChange={(event) => setLimit({ ...limit, perCaller: event.currentTarget.checked })} /> Per caller</label>
              <button type="submit">Add limit</button>
            </form>
          </section>
        </>
      )}
    </>
  );
}

/**
 * @module dashboard/components/server-form
 * Adding or editing one of the user's servers, in a modal dialog. The gateway checks the entry with
 * the same rules as a config file; its issues are listed as it words them.
 */

import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/api-error.js';
import type { ServerView, TemplateView } from '../../contract/api-contract.js';
import { draftFromEntry, emptyDraft, entryFromDraft, type DraftIssue, type DraftKind, type EntryDraft } from '../model/entry-draft.js';
import { useSession } from '../state/session.js';
import { Problem } from './problem.js';
import { SecretRows } from './secret-rows.js';
import { TemplateFields } from './template-fields.js';

export interface ServerFormProps {
  /** The server to edit; undefined to add one. */
  server?: ServerView;
  onDone: (saved: ServerView | undefined) => void;
}

const KINDS: Array<{ kind: DraftKind; label: string }> = [
  { kind: 'url', label: 'Remote URL' },
  { kind: 'stdio', label: 'Local command' },
  { kind: 'template', label: 'Template' },
  { kind: 'json', label: 'JSON entry' },
];

function transportOf(value: string): EntryDraft['transport'] {
  return value === 'http' || value === 'sse' ? value : 'auto';
}

export function ServerForm({ server, onDone }: ServerFormProps) {
  const { api, user } = useSession();
  const dialog = useRef<HTMLDialogElement>(null);
  const [name, setName] = useState(server?.name ?? '');
  const [enabled, setEnabled] = useState(server?.enabled ?? true);
  const [draft, setDraft] = useState<EntryDraft>(() => (server === undefined ? emptyDraft('url') : draftFromEntry(server.entry)));
  const [issues, setIssues] = useState<DraftIssue[]>([]);
  const [failure, setFailure] = useState<unknown>(undefined);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    const element = dialog.current;
    if (element !== null && !element.open) element.showModal();
  }, []);

  // The templates, for the picker: read once the form shows them; without them the name is typed.
  const [templates, setTemplates] = useState<TemplateView[] | undefined>(undefined);
  const wantsTemplates = draft.kind === 'template';
  useEffect(() => {
    if (!wantsTemplates || templates !== undefined) return;
    let current = true;
    api.templates().then(
      (answer) => current && setTemplates(answer.templates),
      () => {},
    );
    return () => {
      current = false;
    };
  }, [wantsTemplates]);

  // The problems sit at the end of a long form: bring them into view when they change.
  useEffect(() => {
    if (failure !== undefined || issues.length > 0) document.getElementById('server-form-problem')?.scrollIntoView({ block: 'nearest' });
  }, [failure, issues]);

  const change = (patch: Partial<EntryDraft>): void => setDraft({ ...draft, ...patch });
  const switchKind = (kind: DraftKind): void => {
    if (kind === 'json') {
      const built = entryFromDraft(draft);
      change({ kind, json: 'entry' in built ? JSON.stringify(built.entry, null, 2) : draft.json });
    } else change({ kind });
  };

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setFailure(undefined);
    const built = entryFromDraft(draft);
    const nameIssues: DraftIssue[] = server === undefined && name.trim() === '' ? [{ path: 'name', message: 'is required' }] : [];
    if ('issues' in built || nameIssues.length > 0) {
      setIssues([...nameIssues, ...('issues' in built ? built.issues : [])]);
      return;
    }
    setIssues([]);
    setSaving(true);
    try {
      const answer = server === undefined ? await api.addServer(name.trim(), built.entry, enabled) : await api.updateServer(server.name, { entry: built.entry, enabled });
      onDone(answer.server);
    } catch (error) {
      setFailure(error);
    } finally {
      setSaving(false);
    }
  };

  const title = server === undefined ? 'Add a server' : `Edit ${server.name}`;
  const field = (id: string, label: string, value: string, onInput: (value: string) => void, extra: { placeholder?: string; hint?: string; required?: boolean } = {}) => (
    <div class="field">
      <label for={id}>
        {label}
        {extra.required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <input id={id} value={value} placeholder={extra.placeholder} required={extra.required} aria-describedby={extra.hint === undefined ? undefined : `${id}-hint`} onInput={(event) => onInput(event.currentTarget.value)} />
      {extra.hint === undefined ? null : <p id={`${id}-hint`} class="muted small">{extra.hint}</p>}
    </div>
  );
  const policyRefused = failure instanceof ApiError && failure.code === 'POLICY_VIOLATION';

  return (
    <dialog ref={dialog} class="dialog" aria-labelledby="server-form-title" onClose={() => onDone(undefined)}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <h2 id="server-form-title">{title}</h2>
        {server === undefined ? field('server-name', 'Name', name, setName, { required: true, placeholder: 'github', hint: 'Letters, digits, - and _; it prefixes the tool names when they clash.' }) : null}
        <fieldset class="segmented">
          <legend>How is it reached?</legend>
          {KINDS.map(({ kind, label }) => (
            <label key={kind}>
              <input type="radio" name="kind" value={kind} checked={draft.kind === kind} onChange={() => switchKind(kind)} />
              {label}
            </label>
          ))}
        </fieldset>
        {draft.kind === 'url' ? (
          <>
            {field('server-url', 'URL', draft.url, (url) => change({ url }), { required: true, placeholder: 'https://example.com/mcp' })}
            <div class="field">
              <label for="server-transport">Transport</label>
              <select id="server-transport" value={draft.transport} onChange={(event) => change({ transport: transportOf(event.currentTarget.value) })}>
                <option value="auto">Automatic (Streamable HTTP, falling back to SSE)</option>
                <option value="http">Streamable HTTP</option>
                <option value="sse">SSE (legacy)</option>
              </select>
            </div>
            <div class="field">
              <label for="server-api-key">API key</label>
              <input
                id="server-api-key"
                type="password"
                autocomplete="off"
                value={draft.apiKey.value}
                placeholder={draft.apiKey.stored !== undefined ? `stored ${draft.apiKey.stored} — leave empty to keep` : 'sent as Authorization: Bearer …'}
                onInput={(event) => change({ apiKey: { ...draft.apiKey, value: event.currentTarget.value } })}
              />
            </div>
            <SecretRows legend="Headers" rows={draft.headers} namePlaceholder="X-Api-Key" secret onChange={(headers) => change({ headers })} />
          </>
        ) : null}
        {draft.kind === 'stdio' ? (
          <>
            {!user.admin ? <p class="note">Only administrators may run local commands on the gateway; the policy will refuse this unless an admin allowed it for you.</p> : null}
            {field('server-command', 'Command', draft.command, (command) => change({ command }), { required: true, placeholder: 'npx' })}
            <div class="field">
              <label for="server-args">Arguments (one per line)</label>
              <textarea id="server-args" rows={3} value={draft.args} onInput={(event) => change({ args: event.currentTarget.value })} />
            </div>
            <SecretRows legend="Environment" rows={draft.env} namePlaceholder="API_KEY" secret onChange={(env) => change({ env })} />
            {field('server-cwd', 'Working directory', draft.cwd, (cwd) => change({ cwd }))}
          </>
        ) : null}
        {draft.kind === 'template' ? <TemplateFields templates={templates} template={draft.template} parameters={draft.parameters} onChange={change} /> : null}
        {draft.kind === 'json' ? (
          <div class="field">
            <label for="server-json">Entry (as in a config file)</label>
            <textarea id="server-json" class="code" rows={10} spellcheck={false} value={draft.json} onInput={(event) => change({ json: event.currentTarget.value })} />
            <p class="muted small">Masked values (••••) keep the stored secret.</p>
          </div>
        ) : (
          <details class="advanced">
            <summary>Timeouts and tool filters</summary>
            {field('server-timeout', 'Start-up timeout', draft.timeout, (timeout) => change({ timeout }), { placeholder: '30 (seconds) or "500ms", "2m"' })}
            {field('server-call-timeout', 'Call timeout', draft.callTimeout, (callTimeout) => change({ callTimeout }), { placeholder: '60' })}
            {field('server-prefix', 'Tool name prefix', draft.prefix, (prefix) => change({ prefix }))}
            {field('server-include', 'Only these tools', draft.include, (include) => change({ include }), { placeholder: 'search_*, get_issue' })}
            {field('server-exclude', 'Never these tools', draft.exclude, (exclude) => change({ exclude }), { placeholder: 'delete_*' })}
          </details>
        )}
        <label class="check">
          <input type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.currentTarget.checked)} />
          Enabled
        </label>
        {policyRefused ? <p class="note">The gateway’s policy refused this server. Ask an administrator if you need an exception.</p> : null}
        <Problem error={failure} issues={issues} id="server-form-problem" />
        <div class="actions">
          <button type="submit" class="primary" disabled={saving}>
            {saving ? 'Saving…' : server === undefined ? 'Add server' : 'Save'}
          </button>
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}

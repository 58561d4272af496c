/**
 * @module dashboard/components/tool-search-setting
 * The signed-in user's choice of how MCP clients on `/mcp` get their tools: every definition (`off`),
 * `search_tools` + `call_tool` (`on`), or `auto` (search above the thresholds) — with what it means for
 * their catalog now (tool count, estimated definition tokens, whether search is in force).
 */

import { useState } from 'preact/hooks';
import type { ToolSearchView } from '../../contract/api-contract.js';
import { Problem } from './problem.js';
import { useSession } from '../state/session.js';
import { useLoader } from '../state/use-loader.js';

const MODES: Array<{ value: ToolSearchView['toolSearch']['mode']; label: string }> = [
  { value: 'off', label: 'Off: every tool definition' },
  { value: 'on', label: 'On: search_tools and call_tool' },
  { value: 'auto', label: 'Auto: search for large catalogs' },
];

export function ToolSearchSetting() {
  const { api } = useSession();
  const setting = useLoader(() => api.toolSearch(), ['tools-changed', 'servers-changed']);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const view = setting.data;
  const choose = (mode: ToolSearchView['toolSearch']['mode']): void => {
    setSaving(true);
    api.setToolSearch(mode).then(
      () => {
        setError(undefined);
        setSaving(false);
        setting.reload();
      },
      (failure: unknown) => {
        setError(failure);
        setSaving(false);
      },
    );
  };
  return (
    <div class="field">
      <label for="tool-search-mode">Tool search for MCP clients</label>
      <select id="tool-search-mode" value={view?.toolSearch.mode ?? 'off'} disabled={view === undefined || saving} onChange={(event) => choose(event.currentTarget.value as ToolSearchView['toolSearch']['mode'])}>
        {MODES.map((mode) => (
          <option key={mode.value} value={mode.value}>
            {mode.label}
          </option>
        ))}
      </select>
      {view === undefined ? null : (
        <p class="muted small" data-testid="tool-search-state">
          {view.active ? 'In force: clients see search_tools and call_tool' : 'Not in force: clients see every tool'} ({view.tools} tools, ≈ {view.estimatedTokens.toLocaleString('en')} tokens of definitions
          {view.toolSearch.mode === 'auto' ? `; auto above ${view.thresholds.maxTools} tools or ${view.thresholds.maxTokens.toLocaleString('en')} tokens` : ''})
        </p>
      )}
      <Problem error={error ?? (view === undefined ? setting.error : undefined)} />
    </div>
  );
}

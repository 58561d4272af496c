/**
 * @module dashboard/components/secret-rows
 * Name/value rows (headers, env, template parameters) whose values are write-only: a stored value is
 * only shown masked, and an empty input keeps it.
 */

import type { SecretRow } from '../model/entry-draft.js';

export interface SecretRowsProps {
  legend: string;
  rows: SecretRow[];
  namePlaceholder: string;
  /** Values are secrets (password inputs). */
  secret: boolean;
  onChange: (rows: SecretRow[]) => void;
}

export function SecretRows({ legend, rows, namePlaceholder, secret, onChange }: SecretRowsProps) {
  const update = (index: number, change: Partial<SecretRow>): void => onChange(rows.map((row, at) => (at === index ? { ...row, ...change } : row)));
  return (
    <fieldset class="rows">
      <legend>{legend}</legend>
      {rows.length === 0 ? <p class="muted small">None.</p> : null}
      {rows.map((row, index) => (
        <div class="row" key={index}>
          <input aria-label={`${legend} ${index + 1}: name`} placeholder={namePlaceholder} value={row.name} onInput={(event) => update(index, { name: event.currentTarget.value })} />
          {secret ? (
            <input
              aria-label={`${legend} ${index + 1}: value`}
              type="password"
              autocomplete="off"
              placeholder={row.stored !== undefined && row.value === '' ? `stored ${row.stored} — leave empty to keep` : 'value'}
              value={row.value}
              onInput={(event) => update(index, { value: event.currentTarget.value })}
            />
          ) : (
            <input aria-label={`${legend} ${index + 1}: value`} placeholder="value" value={row.value} onInput={(event) => update(index, { value: event.currentTarget.value })} />
          )}
          <button type="button" class="quiet" aria-label={`Remove ${legend} ${index + 1}`} onClick={() => onChange(rows.filter((_, at) => at !== index))}>
            ✕
          </button>
        </div>
      ))}
      <button type="button" class="quiet" onClick={() => onChange([...rows, { name: '', value: '' }])}>
        + Add
      </button>
    </fieldset>
  );
}

/**
 * @module dashboard/components/template-fields
 * Picking an administrator's template and filling in its typed parameters: a field per parameter
 * (a list for enums, a number input for numbers, a password input for secrets), its description as
 * the hint. The values go into the draft's parameter rows, so saving works as for any entry. Without
 * the template list (not loaded, or none defined) the template is named by hand.
 */

import type { TemplateParameterView, TemplateView } from '../../contract/api-contract.js';
import type { SecretRow } from '../model/entry-draft.js';
import { SecretRows } from './secret-rows.js';

export interface TemplateFieldsProps {
  /** The templates the gateway offers; undefined while loading or when they cannot be read. */
  templates: TemplateView[] | undefined;
  template: string;
  parameters: SecretRow[];
  onChange: (change: { template?: string; parameters?: SecretRow[] }) => void;
}

export function TemplateFields({ templates, template, parameters, onChange }: TemplateFieldsProps) {
  const chosen = templates?.find((candidate) => candidate.name === template);
  if (templates === undefined || templates.length === 0) {
    return (
      <>
        <div class="field">
          <label for="server-template">
            Template<span aria-hidden="true"> *</span>
          </label>
          <input id="server-template" value={template} required aria-describedby="server-template-hint" onInput={(event) => onChange({ template: event.currentTarget.value })} />
          <p id="server-template-hint" class="muted small">
            {templates === undefined ? 'The name of a template an administrator defined.' : 'No templates are defined yet; an administrator adds them with `switchboard templates add`.'}
          </p>
        </div>
        <SecretRows legend="Parameters" rows={parameters} namePlaceholder="folder" secret={false} onChange={(rows) => onChange({ parameters: rows })} />
      </>
    );
  }
  const rowOf = (name: string): SecretRow | undefined => parameters.find((row) => row.name === name);
  const setValue = (name: string, value: string): void => {
    const existing = rowOf(name);
    onChange({ parameters: existing === undefined ? [...parameters, { name, value }] : parameters.map((row) => (row.name === name ? { ...row, value } : row)) });
  };
  const choose = (name: string): void => {
    const next = templates.find((candidate) => candidate.name === name);
    // Keep values whose names the new template also takes; prefill its defaults.
    const kept = parameters.filter((row) => next?.parameters.some((parameter) => parameter.name === row.name) === true);
    const defaults = (next?.parameters ?? [])
      .filter((parameter) => parameter.default !== undefined && !kept.some((row) => row.name === parameter.name))
      .map((parameter) => ({ name: parameter.name, value: String(parameter.default) }));
    onChange({ template: name, parameters: [...kept, ...defaults] });
  };
  return (
    <>
      <div class="field">
        <label for="server-template">
          Template<span aria-hidden="true"> *</span>
        </label>
        <select id="server-template" value={chosen === undefined ? '' : chosen.name} required aria-describedby={chosen?.description === undefined ? undefined : 'server-template-hint'} onChange={(event) => choose(event.currentTarget.value)}>
          <option value="" disabled>
            Choose a template…
          </option>
          {templates.map((candidate) => (
            <option key={candidate.name} value={candidate.name}>
              {candidate.name}
            </option>
          ))}
        </select>
        {chosen?.description === undefined ? null : (
          <p id="server-template-hint" class="muted small">
            {chosen.description}
          </p>
        )}
      </div>
      {chosen === undefined ? null : chosen.parameters.length === 0 ? (
        <p class="muted small">This template takes no parameters.</p>
      ) : (
        <fieldset class="rows">
          <legend>Parameters</legend>
          {chosen.parameters.map((parameter) => (
            <ParameterField key={parameter.name} parameter={parameter} row={rowOf(parameter.name)} onInput={(value) => setValue(parameter.name, value)} />
          ))}
        </fieldset>
      )}
    </>
  );
}

function ParameterField({ parameter, row, onInput }: { parameter: TemplateParameterView; row: SecretRow | undefined; onInput: (value: string) => void }) {
  const id = `server-parameter-${parameter.name}`;
  const hintId = `${id}-hint`;
  const value = row?.value ?? '';
  const describedBy = parameter.description === undefined ? undefined : hintId;
  const input = (() => {
    if (parameter.type === 'enum' || parameter.type === 'boolean') {
      const values = parameter.type === 'boolean' ? ['true', 'false'] : (parameter.values ?? []);
      return (
        <select id={id} value={value} required={parameter.required} aria-describedby={describedBy} onChange={(event) => onInput(event.currentTarget.value)}>
          <option value="">{parameter.required ? 'Choose…' : '(not set)'}</option>
          {values.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      );
    }
    if (parameter.secret === true) {
      return (
        <input
          id={id}
          type="password"
          autocomplete="off"
          value={value}
          required={parameter.required && row?.stored === undefined}
          placeholder={row?.stored !== undefined && value === '' ? `stored ${row.stored} — leave empty to keep` : ''}
          aria-describedby={describedBy}
          onInput={(event) => onInput(event.currentTarget.value)}
        />
      );
    }
    if (parameter.type === 'number' || parameter.type === 'integer') {
      return (
        <input
          id={id}
          type="number"
          step={parameter.type === 'integer' ? 1 : 'any'}
          min={parameter.minimum}
          max={parameter.maximum}
          value={value}
          required={parameter.required}
          aria-describedby={describedBy}
          onInput={(event) => onInput(event.currentTarget.value)}
        />
      );
    }
    return <input id={id} type="text" pattern={parameter.pattern} value={value} required={parameter.required} aria-describedby={describedBy} onInput={(event) => onInput(event.currentTarget.value)} />;
  })();
  return (
    <div class="field">
      <label for={id}>
        {parameter.name}
        {parameter.required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {input}
      {parameter.description === undefined ? null : (
        <p id={hintId} class="muted small">
          {parameter.description}
        </p>
      )}
    </div>
  );
}

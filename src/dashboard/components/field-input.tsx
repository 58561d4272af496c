/**
 * @module dashboard/components/field-input
 * One argument of the "try it" form, with its label, type, description and error wired up for
 * assistive technology.
 */

import type { FormField } from '../model/schema-form.js';

export interface FieldInputProps {
  field: FormField;
  idPrefix: string;
  value: string;
  error: string | undefined;
  onInput: (value: string) => void;
}

export function FieldInput({ field, idPrefix, value, error, onInput }: FieldInputProps) {
  const id = `${idPrefix}-${field.name}`;
  const help = [field.description === undefined ? undefined : `${id}-description`, error === undefined ? undefined : `${id}-error`].filter(Boolean).join(' ') || undefined;
  const common = { id, 'aria-invalid': error !== undefined, 'aria-describedby': help, 'aria-required': field.required };
  const placeholder = field.default === undefined ? undefined : `default: ${JSON.stringify(field.default)}`;
  let input;
  switch (field.kind) {
    case 'boolean':
      input = field.required ? (
        <input {...common} type="checkbox" checked={value === 'true'} onChange={(event) => onInput(event.currentTarget.checked ? 'true' : 'false')} />
      ) : (
        <select {...common} value={value} onChange={(event) => onInput(event.currentTarget.value)}>
          <option value="">(not set)</option>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      );
      break;
    case 'enum':
      input = (
        <select {...common} value={value} onChange={(event) => onInput(event.currentTarget.value)}>
          <option value="">{field.required ? '(choose one)' : '(not set)'}</option>
          {(field.options ?? []).map((option, index) => (
            <option key={index} value={String(index)}>
              {typeof option === 'string' ? option : JSON.stringify(option)}
            </option>
          ))}
        </select>
      );
      break;
    case 'json':
      input = (
        <textarea
          {...common}
          class="code"
          rows={Math.min(10, Math.max(3, value.split('\n').length))}
          spellcheck={false}
          placeholder={placeholder ?? (field.jsonType === 'array' ? '[ … ]' : field.jsonType === 'object' ? '{ … }' : 'JSON value')}
          value={value}
          onInput={(event) => onInput(event.currentTarget.value)}
        />
      );
      break;
    case 'number':
    case 'integer':
      input = <input {...common} type="text" inputMode={field.kind === 'integer' ? 'numeric' : 'decimal'} placeholder={placeholder} value={value} onInput={(event) => onInput(event.currentTarget.value)} />;
      break;
    default:
      input = <input {...common} type="text" placeholder={placeholder} value={value} onInput={(event) => onInput(event.currentTarget.value)} />;
  }
  return (
    <div class={`field${field.kind === 'boolean' && field.required ? ' field-inline' : ''}`}>
      <label for={id}>
        <span class="field-name">{field.label}</span>
        {field.required ? <span class="required"> (required)</span> : null}
        <span class="field-type"> {field.typeLabel}</span>
      </label>
      {input}
      {field.description === undefined ? null : (
        <p id={`${id}-description`} class="muted small">
          {field.description}
          {field.constraints.length > 0 ? ` (${field.constraints.join(', ')})` : ''}
        </p>
      )}
      {error === undefined ? null : (
        <p id={`${id}-error`} class="field-error">
          {field.label} {error}
        </p>
      )}
    </div>
  );
}

/**
 * @module dashboard/components/schema-table
 * A tool's input schema in a readable table (argument, type, required, description), the raw schema
 * folded below.
 */

import type { FormModel } from '../model/schema-form.js';

export function SchemaTable({ model, schema, caption }: { model: FormModel; schema: unknown; caption: string }) {
  return (
    <div class="schema">
      {model.wholeJson ? (
        <p class="muted">The arguments are one JSON object matching one of several shapes (see the raw schema).</p>
      ) : model.fields.length === 0 ? (
        <p class="muted">No arguments.</p>
      ) : (
        <div class="table-scroll">
          <table>
            <caption class="visually-hidden">{caption}</caption>
            <thead>
              <tr>
                <th scope="col">Argument</th>
                <th scope="col">Type</th>
                <th scope="col">Required</th>
                <th scope="col">Description</th>
              </tr>
            </thead>
            <tbody>
              {model.fields.map((field) => (
                <tr key={field.name}>
                  <th scope="row">
                    <code>{field.name}</code>
                  </th>
                  <td>
                    {field.typeLabel}
                    {field.constraints.length > 0 ? <span class="muted small"> {field.constraints.join(', ')}</span> : null}
                    {field.default === undefined ? null : <span class="muted small"> default {JSON.stringify(field.default)}</span>}
                  </td>
                  <td>{field.required ? 'yes' : 'no'}</td>
                  <td>{field.description ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <details>
        <summary>Raw JSON schema</summary>
        <pre class="code">{JSON.stringify(schema, null, 2)}</pre>
      </details>
    </div>
  );
}

/**
 * @module dashboard/components/tool-detail
 * One tool: where it comes from, what it says about itself, its schema, and "try it".
 */

import { useMemo } from 'preact/hooks';
import type { ToolView } from '../../contract/api-contract.js';
import { formFromSchema } from '../model/schema-form.js';
import { descriptionBesideServer } from '../model/tool-description.js';
import { SchemaTable } from './schema-table.js';
import { TryForm } from './try-form.js';
import { AppFrame } from './app-frame.js';
import { ToolIcon } from './tool-icon.js';

const HINTS: Array<[string, string]> = [
  ['readOnlyHint', 'read-only'],
  ['destructiveHint', 'destructive'],
  ['idempotentHint', 'idempotent'],
  ['openWorldHint', 'open world'],
];

export function ToolDetail({ tool }: { tool: ToolView }) {
  const model = useMemo(() => formFromSchema(tool.inputSchema), [tool.inputSchema]);
  const hints = HINTS.filter(([key]) => tool.annotations?.[key] === true).map(([, word]) => word);
  // The server's tag is shown above: the catalog's `[server]` prefix would repeat it.
  const description = descriptionBesideServer(tool.description, tool.server);
  return (
    <article class="tool-detail card" aria-labelledby="tool-title">
      <h2 id="tool-title">
        <ToolIcon icons={tool.icons} size={24} />
        <code>{tool.name}</code>
      </h2>
      <p class="tags">
        <span class="tag">server {tool.server}</span>
        {tool.originalName !== tool.name ? <span class="tag">on the server: {tool.originalName}</span> : null}
        {tool.taskSupport === undefined ? null : <span class="tag">{tool.taskSupport === 'required' ? 'runs as a task' : 'may run as a task'}</span>}
        {hints.map((hint) => (
          <span key={hint} class={`tag${hint === 'destructive' ? ' tag-bad' : ''}`}>
            {hint}
          </span>
        ))}
      </p>
      {tool.title === undefined ? null : <p><strong>{tool.title}</strong></p>}
      {description === undefined ? null : <p class="description">{description}</p>}
      <h3>Input</h3>
      <SchemaTable model={model} schema={tool.inputSchema} caption={`Arguments of ${tool.name}`} />
      {tool.outputSchema === undefined ? null : (
        <details>
          <summary>Output schema</summary>
          <pre class="code">{JSON.stringify(tool.outputSchema, null, 2)}</pre>
        </details>
      )}
      {tool.uiResourceUri === undefined ? null : <AppFrame key={tool.name} tool={tool.name} uri={tool.uiResourceUri} />}
      <TryForm key={tool.name} tool={tool} />
    </article>
  );
}

/**
 * @module dashboard/components/result-panel
 * A tool result rendered by type: text, images, playable audio, resources, links, structured JSON
 * folded, `isError` in red, and how long the call took.
 */

import type { ResultPart } from '../model/result-view.js';
import { viewOfResult } from '../model/result-view.js';
import { formatDuration } from '../model/format.js';

function Part({ part }: { part: ResultPart }) {
  switch (part.kind) {
    case 'text':
      return (
        <div class="part part-text">
          <pre>{part.text}</pre>
          {part.json === undefined ? null : (
            <details>
              <summary>As formatted JSON</summary>
              <pre class="code">{part.json}</pre>
            </details>
          )}
        </div>
      );
    case 'image':
      return (
        <figure class="part part-image">
          <img src={part.src} alt={part.alt} />
          <figcaption class="muted small">{part.mimeType}</figcaption>
        </figure>
      );
    case 'audio':
      return (
        <figure class="part part-audio">
          <audio controls src={part.src} aria-label={`Audio returned by the tool (${part.mimeType})`} />
          <figcaption class="muted small">{part.mimeType}</figcaption>
        </figure>
      );
    case 'file':
      return (
        <p class="part part-file">
          <a href={part.href} download={part.fileName}>
            Download {part.label}
          </a>
        </p>
      );
    case 'resource':
      return (
        <div class="part part-resource">
          <p class="small">
            Resource <code>{part.uri}</code>
            {part.mimeType === undefined ? null : <span class="muted"> ({part.mimeType})</span>}
          </p>
          <pre>{part.text}</pre>
        </div>
      );
    case 'link':
      return (
        <p class="part part-link">
          Link:{' '}
          {part.href === undefined ? (
            <code>{part.uri}</code>
          ) : (
            <a href={part.href} target="_blank" rel="noopener noreferrer">
              {part.label}
            </a>
          )}
          {part.href === undefined && part.label !== part.uri ? <span> {part.label}</span> : null}
          {part.mimeType === undefined ? null : <span class="muted"> ({part.mimeType})</span>}
          {part.description === undefined ? null : <span class="muted"> — {part.description}</span>}
        </p>
      );
    case 'unknown':
      return (
        <details class="part part-unknown" open>
          <summary>Content the dashboard does not know</summary>
          <pre class="code">{part.json}</pre>
        </details>
      );
  }
}

export function ResultPanel({ result, durationMs }: { result: unknown; durationMs: number }) {
  const view = viewOfResult(result);
  return (
    <section class={`result${view.isError ? ' result-error' : ''}`} aria-labelledby="result-title">
      <h3 id="result-title">
        {view.isError ? 'The tool reported an error' : 'Result'} <span class="muted small">in {formatDuration(durationMs)}</span>
      </h3>
      {view.parts.length === 0 ? <p class="muted">No content.</p> : null}
      {view.parts.map((part, index) => (
        <Part key={index} part={part} />
      ))}
      {view.structured === undefined ? null : (
        <details class="structured">
          <summary>Structured content</summary>
          <pre class="code">{view.structured}</pre>
        </details>
      )}
    </section>
  );
}

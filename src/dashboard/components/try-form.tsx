/**
 * @module dashboard/components/try-form
 * "Try it": a form generated from the tool's input schema (or a JSON editor), checked before the call,
 * then the call through `POST /api/tools/:name/call` (streamed, so the server's progress shows while
 * it runs) and its result.
 */

import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { CallProgress } from '../api/api-client.js';
import type { CallAnswer, ToolView } from '../../contract/api-contract.js';
import { argumentsAsJson, collectArguments, formFromSchema, initialValues, WHOLE_JSON_KEY, type FormValues } from '../model/schema-form.js';
import { useSession } from '../state/session.js';
import { FieldInput } from './field-input.js';
import { Problem } from './problem.js';
import { ResultPanel } from './result-panel.js';

export function TryForm({ tool }: { tool: ToolView }) {
  const { api } = useSession();
  const model = useMemo(() => formFromSchema(tool.inputSchema), [tool.inputSchema]);
  const jsonModel = useMemo(() => ({ fields: [], wholeJson: true }), []);
  const [asJson, setAsJson] = useState(model.wholeJson);
  const [values, setValues] = useState<FormValues>(() => initialValues(model));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [answer, setAnswer] = useState<CallAnswer | undefined>(undefined);
  const [failure, setFailure] = useState<unknown>(undefined);
  const [running, setRunning] = useState(false);
  const [progress, setProgress] = useState<CallProgress | undefined>(undefined);
  const abort = useRef<AbortController | undefined>(undefined);

  useEffect(() => () => abort.current?.abort(), []);

  const active = asJson ? jsonModel : model;
  const idPrefix = `arg-${tool.name.replace(/[^\w-]/g, '_')}`;

  const toggleJson = (): void => {
    if (model.wholeJson) return;
    if (!asJson) setValues({ ...values, [WHOLE_JSON_KEY]: argumentsAsJson(model, values) });
    setErrors({});
    setAsJson(!asJson);
  };

  const run = async (event: Event): Promise<void> => {
    event.preventDefault();
    const collected = collectArguments(active, values);
    setErrors(collected.errors);
    if (collected.arguments === undefined) {
      const first = Object.keys(collected.errors)[0];
      document.getElementById(first === WHOLE_JSON_KEY ? `${idPrefix}-json` : `${idPrefix}-${first}`)?.focus();
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    setRunning(true);
    setFailure(undefined);
    setAnswer(undefined);
    setProgress(undefined);
    try {
      setAnswer(await api.callTool(tool.name, collected.arguments, controller.signal, (update) => abort.current === controller && setProgress(update)));
    } catch (error) {
      setFailure(error);
    } finally {
      if (abort.current === controller) abort.current = undefined;
      setRunning(false);
      setProgress(undefined);
    }
  };

  return (
    <section class="try" aria-labelledby="try-title">
      <div class="section-head">
        <h3 id="try-title">Try it</h3>
        {model.wholeJson ? null : (
          <button type="button" class="quiet" aria-pressed={asJson} onClick={toggleJson}>
            {asJson ? 'Use the form' : 'Edit as JSON'}
          </button>
        )}
      </div>
      <form onSubmit={(event) => void run(event)} noValidate>
        {asJson ? (
          <div class="field">
            <label for={`${idPrefix}-json`}>Arguments (JSON object)</label>
            <textarea
              id={`${idPrefix}-json`}
              class="code"
              rows={8}
              spellcheck={false}
              value={values[WHOLE_JSON_KEY] ?? '{}'}
              aria-invalid={errors[WHOLE_JSON_KEY] !== undefined}
              aria-describedby={errors[WHOLE_JSON_KEY] === undefined ? undefined : `${idPrefix}-json-error`}
              onInput={(event) => setValues({ ...values, [WHOLE_JSON_KEY]: event.currentTarget.value })}
            />
            {errors[WHOLE_JSON_KEY] === undefined ? null : (
              <p id={`${idPrefix}-json-error`} class="field-error">
                Arguments {errors[WHOLE_JSON_KEY]}
              </p>
            )}
          </div>
        ) : (
          model.fields.map((field) => (
            <FieldInput key={field.name} field={field} idPrefix={idPrefix} value={values[field.name] ?? ''} error={errors[field.name]} onInput={(value) => setValues({ ...values, [field.name]: value })} />
          ))
        )}
        {!asJson && model.fields.length === 0 ? <p class="muted">This tool takes no arguments.</p> : null}
        <div class="actions">
          <button type="submit" class="primary" disabled={running}>
            {running ? 'Running…' : `Run ${tool.name}`}
          </button>
          {running ? (
            <button type="button" onClick={() => abort.current?.abort()}>
              Cancel
            </button>
          ) : null}
        </div>
      </form>
      <div aria-live="polite">
        {running && progress !== undefined ? (
          <div class="call-progress">
            <label for={`${idPrefix}-progress`}>Progress</label>
            <progress id={`${idPrefix}-progress`} value={progress.total === undefined ? undefined : progress.progress} max={progress.total}>
              {progress.total === undefined ? progress.progress : `${progress.progress} of ${progress.total}`}
            </progress>
            <span class="muted small">
              {progress.total === undefined ? progress.progress : `${progress.progress} / ${progress.total}`}
              {progress.message === undefined ? '' : ` — ${progress.message}`}
            </span>
          </div>
        ) : null}
        {failure === undefined ? null : <Problem error={failure} />}
        {answer === undefined ? null : <ResultPanel result={answer.result} durationMs={answer.durationMs} />}
      </div>
    </section>
  );
}

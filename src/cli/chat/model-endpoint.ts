/**
 * @module cli/chat/model-endpoint
 * Where `switchboard chat` finds its model: any OpenAI-compatible endpoint (`OPENAI_BASE_URL`,
 * `OPENAI_API_KEY`, `--model`). Local servers (Ollama, vLLM, llama.cpp) need no key. Before any MCP
 * server is started, the endpoint is asked for its models, so "nothing answers" is one clear line,
 * not a stack trace from deep inside an agent run.
 */

import { usageError, CliExit, ExitCode } from '../cli-error.js';

/** The OpenAI API, used when no base URL is set. */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** The model used against the OpenAI API when none is named. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';
/** How long the endpoint may take to list its models. @default 5000 */
export const ENDPOINT_PROBE_TIMEOUT_MS = 5_000;

/** A resolved model endpoint. */
export interface ModelEndpoint {
  baseUrl: string;
  /** Undefined for local endpoints that take none. */
  apiKey: string | undefined;
  model: string;
}

/** Reads the endpoint from flags and environment, then checks that it answers. */
export async function resolveModelEndpoint(flags: { model?: string }, env: NodeJS.ProcessEnv = process.env, fetchImpl: typeof fetch = fetch): Promise<ModelEndpoint> {
  const baseUrl = (env.OPENAI_BASE_URL?.trim() || OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const apiKey = env.OPENAI_API_KEY?.trim() || undefined;
  if (apiKey === undefined && baseUrl === OPENAI_DEFAULT_BASE_URL) {
    throw usageError(
      'switchboard chat needs a model: set OPENAI_API_KEY for the OpenAI API, or OPENAI_BASE_URL for any OpenAI-compatible server ' +
        '(Ollama: http://127.0.0.1:11434/v1, llama.cpp: http://127.0.0.1:8080/v1, vLLM: http://127.0.0.1:8000/v1)',
    );
  }
  const listed = await probe(baseUrl, apiKey, fetchImpl);
  const model = flags.model?.trim() || env.OPENAI_MODEL?.trim() || (baseUrl === OPENAI_DEFAULT_BASE_URL ? DEFAULT_OPENAI_MODEL : listed[0]);
  if (model === undefined || model === '') throw usageError(`the endpoint at ${baseUrl} lists no model; name one with --model`);
  return { baseUrl, apiKey, model };
}

/** The model ids the endpoint lists (empty when it does not list them). Throws when it does not answer. */
async function probe(baseUrl: string, apiKey: string | undefined, fetchImpl: typeof fetch): Promise<string[]> {
  let response: Response;
  try {
    response = await fetchImpl(`${baseUrl}/models`, {
      headers: apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` },
      signal: AbortSignal.timeout(ENDPOINT_PROBE_TIMEOUT_MS),
    });
  } catch (error) {
    throw new CliExit(ExitCode.Failed, noEndpointMessage(baseUrl, error));
  }
  if (response.status === 401 || response.status === 403) {
    throw new CliExit(ExitCode.Failed, `the model endpoint at ${baseUrl} refused the API key (HTTP ${response.status}); check OPENAI_API_KEY`);
  }
  if (!response.ok) return [];
  try {
    const body: unknown = await response.json();
    const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
    return Array.isArray(data) ? data.flatMap((item: unknown) => (typeof item === 'object' && item !== null && typeof (item as { id?: unknown }).id === 'string' ? [(item as { id: string }).id] : [])) : [];
  } catch {
    return [];
  }
}

/** "No model endpoint answers at …" with the reason and what to do. */
export function noEndpointMessage(baseUrl: string, error: unknown): string {
  return `no model endpoint answers at ${baseUrl} (${networkReason(error)}); start one (e.g. \`ollama serve\`) or point OPENAI_BASE_URL at a running OpenAI-compatible server`;
}

/** A short reason for a network failure: `connection refused`, `timed out`, or the error's own code. */
export function networkReason(error: unknown): string {
  const code = errorCode(error);
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (code === 'ECONNRESET') return 'connection reset';
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'APIConnectionTimeoutError')) return 'timed out';
  return code ?? rootMessage(error);
}

/** The message of the innermost cause ("fetch failed" says nothing; its cause says why). */
function rootMessage(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < 5; depth++) {
    const cause = (current as { cause?: unknown } | null | undefined)?.cause;
    if (!(cause instanceof Error)) break;
    current = cause;
  }
  return current instanceof Error ? current.message : String(current);
}

function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0) return errorCode(errors[0]);
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * What went wrong when the model call of a turn failed, as one line, or undefined when the error is
 * not the endpoint's (then it is a bug and is reported as one).
 */
export function describeModelError(error: unknown, baseUrl: string): string | undefined {
  // Agent frameworks wrap the client's error (langchain's MiddlewareError); the facts are on a cause.
  for (let current = error, depth = 0; current instanceof Error && depth < 6; depth++, current = current.cause) {
    const status = (current as { status?: unknown }).status;
    if (current.name === 'APIConnectionError' || current.name === 'APIConnectionTimeoutError' || errorCode(current) === 'ECONNREFUSED') return noEndpointMessage(baseUrl, current);
    if (typeof status === 'number') {
      if (status === 401 || status === 403) return `the model endpoint refused the API key (HTTP ${status}); check OPENAI_API_KEY`;
      const message = firstLine(current.message).replace(new RegExp(`^${status} `), '');
      if (status === 404) return `the model endpoint answered HTTP 404: ${message} (is --model a model it serves?)`;
      return `the model endpoint answered HTTP ${status}: ${message}`;
    }
  }
  return undefined;
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').slice(0, 300);
}

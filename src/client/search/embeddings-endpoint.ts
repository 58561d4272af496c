/**
 * @module client/search/embeddings-endpoint
 * A client of an OpenAI-compatible `POST /v1/embeddings` endpoint (OpenAI, Ollama, vLLM, LM Studio,
 * llama.cpp …): texts in, one vector each out. Every failure — unreachable, slow, an HTTP error, an
 * answer of the wrong shape — is one `UNAVAILABLE` error that says which; the key is never in it.
 */

import { ErrorCode, SwitchboardError } from '../../errors.js';

/** Where embeddings come from. */
export interface EmbeddingsEndpointOptions {
  /** The API base, e.g. `http://127.0.0.1:11434/v1` (`/embeddings` is appended). */
  baseUrl: string;
  /** The embedding model, e.g. `text-embedding-3-small`. */
  model: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string;
  /** Deadline of one request. @default 5000 */
  timeoutMs?: number;
  /** Texts per request. @default 256 */
  batchSize?: number;
}

/** Default deadline of one embeddings request. */
export const DEFAULT_EMBEDDINGS_TIMEOUT_MS = 5_000;

/** The vectors of `texts`, in order. */
export async function fetchEmbeddings(options: EmbeddingsEndpointOptions, texts: readonly string[]): Promise<number[][]> {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
  const batch = options.batchSize ?? 256;
  const vectors: number[][] = [];
  for (let start = 0; start < texts.length; start += batch) {
    const input = texts.slice(start, start + batch);
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }) },
        body: JSON.stringify({ model: options.model, input }),
        signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_EMBEDDINGS_TIMEOUT_MS),
      });
    } catch (error) {
      throw unavailable(url, error instanceof Error && error.name === 'TimeoutError' ? 'no answer in time' : `cannot reach it (${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)})`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw unavailable(url, `HTTP ${response.status}`);
    }
    vectors.push(...readVectors(await response.json().catch(() => undefined), input.length, url));
  }
  return vectors;
}

function readVectors(body: unknown, count: number, url: string): number[][] {
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  if (!Array.isArray(data) || data.length !== count) throw unavailable(url, `expected ${count} embeddings in "data", got ${Array.isArray(data) ? data.length : 'none'}`);
  const vectors = new Array<number[]>(count);
  for (const [position, item] of data.entries()) {
    const entry = (typeof item === 'object' && item !== null ? item : {}) as { index?: unknown; embedding?: unknown };
    const index = typeof entry.index === 'number' ? entry.index : position;
    if (!Array.isArray(entry.embedding) || entry.embedding.some((value) => typeof value !== 'number') || index < 0 || index >= count) throw unavailable(url, `embedding ${position} is not a list of numbers`);
    vectors[index] = entry.embedding as number[];
  }
  return vectors;
}

function unavailable(url: string, problem: string): SwitchboardError {
  return new SwitchboardError(ErrorCode.Unavailable, `The embeddings endpoint ${url} failed: ${problem}.`, { details: { url, retryable: true } });
}

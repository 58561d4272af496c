/**
 * @module adapters/langchain-middleware
 * `createAgent` middleware (langchain 1.x) that gives a LangGraph agent the tools of a
 * `MultiServerClient` as they are at each model call: tools added by `list_changed` or brought back by
 * a restart are offered on the next step, removed ones are no longer offered, and calls to any tool
 * the client routes are executed — the agent is built once. Optionally moves tool-result media into a
 * user message for OpenAI-style models (see `moveToolMediaToUserMessages`).
 */

import { createMiddleware } from 'langchain';
import { moveToolMediaToUserMessages } from './langchain-media.js';
import { isSwitchboardTool } from './langchain-tool.js';
import type { LangChainToolset } from './langchain-toolset.js';

/** Options of {@link createSwitchboardMiddleware}. */
export interface SwitchboardMiddlewareOptions {
  /**
   * `'user-message'` moves images, audio and files from tool messages into a user message after them
   * (needed by OpenAI Chat Completions and compatible servers); `'keep'` leaves them in the tool
   * messages (Anthropic, Gemini). @default 'keep'
   */
  toolMedia?: 'keep' | 'user-message';
  /** The middleware's name (must be unique within an agent). @default 'SwitchboardTools' */
  name?: string;
}

/**
 * Middleware that offers the toolset's current tools on every model call and runs them.
 * Do not also pass the toolset's tools in `createAgent({ tools })`.
 *
 * @example
 * ```ts
 * const toolset = createLangChainToolset(client);
 * const agent = createAgent({ model, tools: [], middleware: [createSwitchboardMiddleware(toolset, { toolMedia: 'user-message' })] });
 * ```
 */
export function createSwitchboardMiddleware(toolset: LangChainToolset, options: SwitchboardMiddlewareOptions = {}) {
  const moveMedia = options.toolMedia === 'user-message';
  return createMiddleware({
    name: options.name ?? 'SwitchboardTools',
    wrapModelCall: (request, handler) =>
      handler({
        ...request,
        tools: [...request.tools.filter((tool) => !isSwitchboardTool(tool)), ...toolset.tools],
        messages: moveMedia ? moveToolMediaToUserMessages(request.messages) : request.messages,
      }),
    wrapToolCall: (request, handler) => {
      if (request.tool !== undefined) return handler(request);
      // Also for a tool whose server is down right now: the client's error says so, and the model can retry later.
      return handler({ ...request, tool: toolset.toolFor(request.toolCall.name) });
    },
  });
}

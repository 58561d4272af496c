/**
 * @module adapters/langchain-search-tool
 * `search_tools` and `call_tool` as LangChain tools, for a toolset with tool search on. They are
 * switchboard tools (the middleware tells them from the app's own), return `ToolMessage`s like the
 * others (the `ToolResult` as artifact), and turn bad arguments or an unknown name into an error
 * message the model reads.
 */

import { ToolMessage } from '@langchain/core/messages';
import type { CallbackManagerForToolRun } from '@langchain/core/callbacks/manager';
import type { ToolRunnableConfig } from '@langchain/core/tools';
import type { CatalogTool } from '../client/multi-server-client.js';
import { SEARCH_TOOLS_NAME, type ToolDiscovery } from '../client/search/discovery-tools.js';
import type { CallOptions } from '../connection/server-connection.js';
import type { ToolResult } from '../result/tool-result.js';
import type { AdapterClient } from './adapter-client.js';
import { toLangChainContent } from './langchain-content.js';
import { SwitchboardTool, type LangChainToolOptions } from './langchain-tool.js';
import { isCallerAbort, toolFailureText } from './tool-failure.js';

/** A meta-tool of progressive discovery as a LangChain tool. */
export class ToolSearchTool extends SwitchboardTool {
  readonly #discovery: ToolDiscovery;
  readonly #timeoutMs: number | undefined;

  static override lc_name(): string {
    return 'ToolSearchTool';
  }

  /** `definition` is the meta-tool (`search_tools` or `call_tool`) in catalog shape. */
  constructor(client: AdapterClient, discovery: ToolDiscovery, definition: CatalogTool, options: LangChainToolOptions = {}) {
    super(client, definition, { ...options, schema: 'original' });
    this.#discovery = discovery;
    this.#timeoutMs = options.timeoutMs;
  }

  protected override async _call(args: unknown, _runManager?: CallbackManagerForToolRun, config?: ToolRunnableConfig): Promise<ToolMessage | string | ToolMessage['content']> {
    const signal = config?.signal;
    const callOptions: CallOptions = { ...(signal === undefined ? {} : { signal }), ...(this.#timeoutMs === undefined ? {} : { timeoutMs: this.#timeoutMs }) };
    const toolCallId = config?.toolCall?.id;
    let result: ToolResult;
    try {
      result = this.name === SEARCH_TOOLS_NAME ? this.#discovery.search(args).result : await this.#discovery.call(args, callOptions);
    } catch (error) {
      if (isCallerAbort(signal) || toolCallId === undefined) throw error;
      return new ToolMessage({ content: toolFailureText(error), tool_call_id: toolCallId, name: this.name, status: 'error', metadata: this.metadata });
    }
    const content = toLangChainContent(result);
    if (toolCallId === undefined) return content;
    const fields = { tool_call_id: toolCallId, name: this.name, status: result.isError ? ('error' as const) : ('success' as const), artifact: result, metadata: this.metadata };
    return typeof content === 'string' ? new ToolMessage({ ...fields, content }) : new ToolMessage({ ...fields, contentBlocks: content });
  }
}

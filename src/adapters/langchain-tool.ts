/**
 * @module adapters/langchain-tool
 * One tool of a `MultiServerClient` as a LangChain tool. It holds the exposed name, not a
 * connection: every call goes through `client.callTool(name)` at call time, so a tool handed to an
 * agent keeps working after its server restarts or reconnects (the flaw of tools that close over a
 * session). Invoked with a tool call (as agents do), it returns a `ToolMessage`: the content as
 * standard blocks, `status: 'error'` for results with `isError` and for calls that could not run (the
 * model reads why and can recover), and the whole `ToolResult` as `artifact`. Invoked with plain
 * arguments (`tool.invoke({ message: 'hi' })`) it returns the content and throws call failures.
 *
 * LangChain's own check of the arguments is skipped: it judges by the provider-safe schema shown to
 * the model (stricter than the server: a defaulted property is required there), and fails with
 * "Received tool input did not match expected schema", no field named, before any callback runs — a
 * model got that and a stack trace. The client checks against the server's schema instead, and its
 * INVALID_ARGUMENT message (which field, what is wrong) reaches the model as an error ToolMessage.
 */

import { ToolMessage } from '@langchain/core/messages';
import type { CallbackManagerForToolRun } from '@langchain/core/callbacks/manager';
import { StructuredTool, type ToolRunnableConfig } from '@langchain/core/tools';
import type { JSONSchema } from '@langchain/core/utils/json_schema';
import type { CatalogTool } from '../client/multi-server-client.js';
import type { CallOptions } from '../connection/call-options.js';
import type { ToolResult } from '../result/tool-result.js';
import type { AdapterClient } from './adapter-client.js';
import { toLangChainContent } from './langchain-content.js';
import { toProviderSchema } from './provider-schema.js';
import { isCallerAbort, toolFailureText } from './tool-failure.js';

/** Which schema a LangChain tool declares. */
export type LangChainSchemaMode = 'provider-safe' | 'original';

/** Options of the LangChain tools. */
export interface LangChainToolOptions {
  /**
   * `'provider-safe'` declares the schema providers accept (`$ref` inlined, no top-level union; see
   * `toProviderSchema`); the original still validates the arguments. @default 'provider-safe'
   */
  schema?: LangChainSchemaMode;
  /** Deadline of each call. @default the server's `callTimeout` */
  timeoutMs?: number;
}

/** What a switchboard tool records in LangChain `metadata` (visible in `on_tool_start` events). */
export interface SwitchboardToolMetadata {
  [key: string]: unknown;
  server: string;
  originalName: string;
  switchboard: true;
  /** The tool's `_meta` as its server listed it. */
  _meta?: Record<string, unknown>;
  icons?: CatalogTool['icons'];
}

/** A LangChain tool that calls one tool of a `MultiServerClient` by its exposed name. */
export class SwitchboardTool extends StructuredTool<JSONSchema> {
  name: string;
  description: string;
  override metadata: SwitchboardToolMetadata;
  /** The catalog schema this tool was built from. */
  readonly sourceSchema: CatalogTool['inputSchema'];
  readonly #client: AdapterClient;
  readonly #timeoutMs: number | undefined;
  readonly #schema: JSONSchema;
  #skippingValidation = false;

  static override lc_name(): string {
    return 'SwitchboardTool';
  }

  constructor(client: AdapterClient, tool: CatalogTool, options: LangChainToolOptions = {}) {
    // Without a run name, callbacks and stream events would name every tool "SwitchboardTool".
    super({ defaultConfig: { runName: tool.name } });
    this.#client = client;
    this.#timeoutMs = options.timeoutMs;
    this.name = tool.name;
    this.sourceSchema = tool.inputSchema;
    this.description = tool.description ?? tool.name;
    // LangChain types JSON Schema as the union its zod converter emits; a server's schema is a plain object.
    this.#schema = (options.schema === 'original' ? tool.inputSchema : toProviderSchema(tool.inputSchema).parameters) as JSONSchema;
    // The server's `_meta` (MCP Apps' `ui.resourceUri` among others) and icons, for hosts that render them.
    this.metadata = { server: tool.server, originalName: tool.originalName, switchboard: true, ...(tool._meta === undefined ? {} : { _meta: tool._meta }), ...(tool.icons === undefined ? {} : { icons: tool.icons }) };
  }

  /** The schema the model is shown (see {@link LangChainToolOptions.schema}). */
  get schema(): JSONSchema {
    return this.#skippingValidation ? ANY_ARGUMENTS : this.#schema;
  }

  /**
   * LangChain's `call` (which `invoke` runs) validates against `schema` synchronously, before its first
   * `await`: for that moment `schema` accepts anything, and the client judges the arguments.
   */
  override call(...args: Parameters<StructuredTool<JSONSchema>['call']>): ReturnType<StructuredTool<JSONSchema>['call']> {
    this.#skippingValidation = true;
    try {
      return super.call(...args);
    } finally {
      this.#skippingValidation = false;
    }
  }

  /** The call itself; the meta-tools of tool search override it (the answer is shaped the same). */
  protected run(args: unknown, callOptions: CallOptions): Promise<ToolResult> {
    return this.#client.callTool(this.name, isRecord(args) ? args : {}, callOptions);
  }

  protected async _call(args: unknown, _runManager?: CallbackManagerForToolRun, config?: ToolRunnableConfig): Promise<ToolMessage | string | ToolMessage['content']> {
    const signal = config?.signal;
    const callOptions: CallOptions = {
      ...(signal === undefined ? {} : { signal }),
      ...(this.#timeoutMs === undefined ? {} : { timeoutMs: this.#timeoutMs }),
    };
    const toolCallId = config?.toolCall?.id;
    let result: ToolResult;
    try {
      result = await this.run(args, callOptions);
    } catch (error) {
      if (isCallerAbort(signal) || toolCallId === undefined) throw error;
      return new ToolMessage({ content: toolFailureText(error), tool_call_id: toolCallId, name: this.name, status: 'error', metadata: this.metadata });
    }
    const content = toLangChainContent(result);
    // Called without a tool call (plain `invoke(args)`) there is no message to build: the content is the answer.
    if (toolCallId === undefined) return content;
    const fields = { tool_call_id: toolCallId, name: this.name, status: result.isError ? ('error' as const) : ('success' as const), artifact: result, metadata: this.metadata };
    return typeof content === 'string' ? new ToolMessage({ ...fields, content }) : new ToolMessage({ ...fields, contentBlocks: content });
  }
}

/** The schema LangChain validates by while a call starts: everything passes (the client validates). */
const ANY_ARGUMENTS: JSONSchema = {};

/** Whether a LangChain tool is one of ours (so middleware can tell them from the app's own tools). */
export function isSwitchboardTool(tool: unknown): tool is SwitchboardTool {
  return tool instanceof SwitchboardTool;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

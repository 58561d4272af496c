/**
 * @module client/call/send-call
 * The innermost layer of a tool call: the request to the server's connection. Progress is asked of
 * the server only when the caller or a `tool-progress` listener wants it (a progress token changes
 * the request the server sees).
 */

import type { ProgressUpdate } from '../../connection/progress-update.js';
import type { CallOptions } from '../../connection/server-connection.js';
import type { ToolResult } from '../../result/tool-result.js';
import type { CatalogTool } from '../catalog/catalog-items.js';
import type { ClientEventSink } from '../multi-server-client-events.js';

/** Where a call is sent: a server's connection. */
export interface CallTarget {
  callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<ToolResult>;
}

/** The options sent with call `callId`: the caller's own unless progress is wanted. */
export function sendOptions(events: ClientEventSink, options: CallOptions, callId: number, tool: CatalogTool): CallOptions {
  const onProgress = options.onProgress;
  if (onProgress === undefined && events.listenerCount('tool-progress') === 0) return options;
  return {
    ...options,
    onProgress: (progress: ProgressUpdate) => {
      events.emit('tool-progress', { callId, name: tool.name, server: tool.server, ...progress });
      onProgress?.(progress);
    },
  };
}

/** Sends the call: the tool by its name on its server. */
export function sendCall(target: CallTarget, tool: CatalogTool, args: Record<string, unknown>, options: CallOptions): Promise<ToolResult> {
  return target.callTool(tool.originalName, args, options);
}

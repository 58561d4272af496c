/**
 * @module client/call/call-tool
 * The path of one tool call: route the exposed name, check the arguments, then the layers
 * observe (stats, span, events) → cache → send (as a task when the tool requires one, its structured
 * result checked when it declares an outputSchema), with retry entered only after a failed attempt.
 * Not `async`, and one promise derived per call: the per-call path is what the benchmark's CPU/call
 * measures, and each `async` layer would cost promises and microtask turns.
 */

import { DEFAULT_RETRY_POLICY } from '../../config/server-spec.js';
import { ErrorCode, SwitchboardError, isSwitchboardError } from '../../errors.js';
import type { ToolResult } from '../../result/tool-result.js';
import type { CatalogTool } from '../catalog/catalog-items.js';
import type { ClientCore } from '../client-core.js';
import type { ToolCallOptions } from '../multi-server-client-options.js';
import { endCall } from '../servers/drain-calls.js';
import { cacheCall } from './cache-call.js';
import { CallObservation } from './observe-call.js';
import { invalidArgumentsError, refuseCall, unknownToolOf } from './refuse-call.js';
import { retryCall } from './retry-call.js';
import { sendChecked } from './send-checked.js';
import { sendOptions } from './send-call.js';
import { withTraceMeta } from './trace-meta.js';

/** Calls a tool by its exposed name (see {@link MultiServerClient.callTool}). */
export function callTool(core: ClientCore, name: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolResult> {
  const tool = core.catalogs.tools.route(name);
  if (tool === undefined || (options.server !== undefined && tool.server !== options.server)) return refuseCall(core, unknownToolOf(core, name, options.server), name);
  if (core.options.validateArguments !== false) {
    // Synchronous for valid arguments of simple schemas and once a schema is compiled.
    const checked = core.validator.validate(tool.inputSchema, args);
    if (!Array.isArray(checked)) return checked.then((problems) => (problems.length > 0 ? refuseCall(core, invalidArgumentsError(tool, problems), name, tool) : callRouted(core, tool, args, options)));
    if (checked.length > 0) return refuseCall(core, invalidArgumentsError(tool, checked), name, tool);
  }
  return callRouted(core, tool, args, options);
}

/** The call once routed and checked. */
function callRouted(core: ClientCore, tool: CatalogTool, args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolResult> {
  const slot = core.slots.get(tool.server);
  const callId = ++core.nextCallId;
  const observed = new CallObservation(core.stats, core.events, tool, callId, options.traceContext);
  try {
    const connection = slot?.connection;
    if (slot === undefined || connection === undefined) throw new SwitchboardError(ErrorCode.ServerNotFound, `server "${tool.server}" is not configured`, { server: tool.server, tool: tool.name, operation: 'tools/call' });
    const cached = cacheCall(core.cache, core.stats, slot, tool, args);
    if (cached.hit !== undefined) {
      observed.end({ ok: true, isError: false, cached: true });
      return Promise.resolve(cached.hit);
    }
    const callOptions = withTraceMeta(sendOptions(core.events, options, callId, tool), observed.span);
    slot.running++;
    const succeeded = (result: ToolResult): ToolResult => {
      endCall(slot);
      cached.stored(result);
      observed.succeeded(result);
      return result;
    };
    const mode = slot.spec.validateOutput;
    return sendChecked(core.outputCheck, connection, tool, args, callOptions, mode).then(succeeded, (error: unknown) =>
      retryCall(error, {
        tool,
        policy: slot.spec.retry === false ? undefined : (slot.spec.retry ?? DEFAULT_RETRY_POLICY),
        deadline: observed.started + (options.timeoutMs ?? slot.spec.callTimeoutMs),
        signal: options.signal,
        send: (timeoutMs) => sendChecked(core.outputCheck, connection, tool, args, { ...callOptions, timeoutMs }, mode),
        onRetry: (attempt, reason) => {
          core.stats.retried(tool.server, tool.originalName);
          core.logger.info('retrying a call that is safe to repeat', { server: tool.server, tool: tool.originalName, attempt, error: isSwitchboardError(reason) ? reason.code : String(reason) });
        },
      }).then(succeeded, (final: unknown) => {
        endCall(slot);
        cached.failed();
        throw observed.failed(final, options.timeoutMs);
      }),
    );
  } catch (error) {
    return Promise.reject(observed.failed(error, options.timeoutMs));
  }
}

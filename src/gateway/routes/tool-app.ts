/**
 * @module gateway/routes/tool-app
 * What the dashboard shows of a tool's MCP App: in `GET /api/tools` the tool's `ui://` resource and
 * task support; `GET /api/tools/:name/app` reads that resource from the tool's server (listed or not)
 * and answers `{ uri, mimeType, frameUrl }`: the one-time URL of its HTML (see app-frames), which
 * the dashboard loads in a sandboxed frame.
 */

import type { CatalogTool } from '../../client/multi-server-client.js';
import { UI_MIME_TYPE, uiResourceUriOf } from '../../client/mcp-apps.js';
import { taskSupportOf } from '../../client/tasks/task-types.js';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { UserClient } from '../../pool/index.js';

/** Largest app HTML passed to the dashboard. */
export const MAX_APP_HTML_CHARS = 2 * 1024 * 1024;

/** The app fields of a tool view. */
export function appFields(tool: CatalogTool): { uiResourceUri?: string; taskSupport?: 'optional' | 'required' } {
  const uri = uiResourceUriOf(tool._meta);
  const support = taskSupportOf(tool);
  return { ...(uri === undefined ? {} : { uiResourceUri: uri }), ...(support === 'forbidden' ? {} : { taskSupport: support }) };
}

/** The HTML of the app of `tool` (the catalog entry the user may see as `name`), read from its server. */
export async function toolApp(client: UserClient, name: string, tool: CatalogTool | undefined): Promise<{ uri: string; mimeType: string; html: string }> {
  if (tool === undefined) throw new SwitchboardError(ErrorCode.ToolNotFound, `There is no tool named "${name}".`, { tool: name });
  const uri = uiResourceUriOf(tool._meta);
  if (uri === undefined) throw new SwitchboardError(ErrorCode.NotFound, `Tool "${name}" has no app (no ui:// resource in its _meta).`, { tool: name });
  const result = await client.readResource(uri, { server: tool.server });
  const content = result.contents.find((item) => item.uri === uri) ?? result.contents[0];
  const html = content?.text;
  if (typeof html !== 'string') throw new SwitchboardError(ErrorCode.ServerRequestFailed, `server "${tool.server}" answered ${uri} without HTML text`, { server: tool.server, tool: name });
  if (html.length > MAX_APP_HTML_CHARS) throw new SwitchboardError(ErrorCode.PayloadTooLarge, `the app of tool "${name}" is larger than ${MAX_APP_HTML_CHARS} characters`, { server: tool.server, tool: name });
  return { uri, mimeType: content?.mimeType ?? UI_MIME_TYPE, html };
}

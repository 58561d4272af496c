/**
 * @module dashboard/api/api-types
 * The shapes of the gateway's `/api` answers (docs/api.md), as the dashboard reads them.
 */

import type { TimelinePoint } from '../../metrics/stats-collector.js';
import type { ToolResult } from '../../result/tool-result.js';

export type { TimelinePoint, ToolResult };
export type { ContentItem } from '../../result/tool-result.js';
export type { ClientStats, ServerStats, ToolStats, CallStats } from '../../metrics/stats-collector.js';
export type { TemplateParameterView, TemplateView } from '../../gateway/template-view.js';

/** The signed-in user (`GET /api/me`). */
export interface ApiUser {
  id: string;
  name: string;
  admin: boolean;
}

/** Server states, as everywhere in the product. */
export type ServerState = 'connecting' | 'ready' | 'degraded' | 'reconnecting' | 'failed' | 'closed';

/** How a registered server is reached. */
export type ServerKind = 'url' | 'stdio' | 'template';

/** One server as `GET /api/servers` shows it (secrets masked). */
export interface ServerView {
  name: string;
  shared: boolean;
  editable: boolean;
  enabled: boolean;
  kind: ServerKind;
  entry: Record<string, unknown>;
  description?: string;
  state: ServerState | string;
  transport?: string;
  protocolVersion?: string;
  /** Since when the server has been ready (ms since epoch). */
  readyAt?: number;
  restarts: number;
  toolCount: number;
  error?: { code: string; message: string; hint?: string; stderr?: string };
  stats: {
    calls: number;
    /** Calls refused before anything was sent, by error code. */
    refused: Record<string, number>;
    errorRate: number;
    latency: { p50: number; p95: number; p99: number };
    timeline: TimelinePoint[];
  };
}

/** One tool of `GET /api/tools`. */
export interface ToolView {
  name: string;
  server: string;
  originalName: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  /** The server's icons (only https: and data: images). */
  icons?: IconView[];
  /** The tool's MCP App (`_meta.ui.resourceUri`). */
  uiResourceUri?: string;
  /** Whether the tool runs as a task. */
  taskSupport?: 'optional' | 'required';
}

/** A running task of one of the user's servers (`GET /api/tasks`). */
export interface TaskView {
  server: string;
  taskId: string;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  createdAt: string;
  lastUpdatedAt: string;
  statusMessage?: string;
}

/** An icon of a tool or server. */
export interface IconView {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** `GET /api/tools/:name/app`: where to frame a tool's MCP App (a one-time URL). */
export interface AppView {
  uri: string;
  mimeType: string;
  frameUrl: string;
}

/** `POST /api/tools/:name/call`. */
export interface CallAnswer {
  result: ToolResult;
  durationMs: number;
}

/** One validation issue, with the same wording as config files. */
export interface ApiIssue {
  path: string;
  message: string;
  hint?: string;
}

/** The error body of every failed `/api` request. */
export interface ApiErrorBody {
  code: string;
  message: string;
  server?: string;
  hint?: string;
  issues?: ApiIssue[];
}

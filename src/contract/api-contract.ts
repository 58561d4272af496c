/**
 * @module contract/api-contract
 * The contract of the gateway's HTTP `/api` (docs/api.md): the request and response shapes of each
 * endpoint, shared by the gateway, which builds them, and the dashboard, which reads them. The
 * dashboard imports nothing of the server but this module; this module imports only plain type
 * modules (`result/tool-result`, `metrics/stats-types`), so the browser bundle never pulls in server
 * code and a change to a shape shows on both sides at compile time.
 */

import type { ClientStats, TimelinePoint } from '../metrics/stats-types.js';
import type { ToolResult } from '../result/tool-result.js';

export type { ContentItem, ToolResult } from '../result/tool-result.js';
export type { CallStats, ClientStats, LatencySummary, ServerStats, TimelinePoint, ToolStats } from '../metrics/stats-types.js';
export type { AnnotationFilterView, ApprovalView, EndpointView, GroupView, LimitView, RuleView, ScopeView } from './access-contract.js';

/** The signed-in user. */
export interface ApiUser {
  id: string;
  name: string;
  admin: boolean;
}

/** `GET /api/me`. */
export interface MeResponse {
  user: ApiUser;
}

/**
 * `GET /api/stats`: the user's client's numbers; in a cluster (PostgreSQL), added up over the live
 * replicas, and `replicas` says how many that is (absent with one SQLite replica).
 */
export type StatsResponse = ClientStats & { replicas?: number };

/** Server states, as everywhere in the product. */
export type ServerState = 'connecting' | 'ready' | 'degraded' | 'reconnecting' | 'failed' | 'closed';

/** How a registered server is reached. */
export type ServerKind = 'url' | 'stdio' | 'template';

/** The numbers of a {@link ServerView}. */
export interface ServerViewStats {
  /** Every call, refused ones included. */
  calls: number;
  /** Calls refused before anything was sent, by error code. */
  refused: Record<string, number>;
  errorRate: number;
  latency: { p50: number; p95: number; p99: number };
  timeline: TimelinePoint[];
}

/** A server of one user as `/api/servers` shows it (secrets masked). */
export interface ServerView {
  name: string;
  /** Defined by an administrator (in the registry or the config file), offered to every user. */
  shared: boolean;
  /** True when this user may change or remove it through the API. */
  editable: boolean;
  enabled: boolean;
  kind: ServerKind;
  /** The config-file entry, secrets masked (`••••abcd`); empty for a shared server shown to a tenant. */
  entry: Record<string, unknown>;
  description?: string;
  state: ServerState;
  transport?: 'stdio' | 'http' | 'sse';
  protocolVersion?: string;
  /** Since when the server has been ready (ms since epoch). */
  readyAt?: number;
  /** The server's icons from its `serverInfo` (only https: and data: images). */
  icons?: IconView[];
  restarts: number;
  toolCount: number;
  error?: { code: string; message: string; hint?: string; stderr?: string };
  stats: ServerViewStats;
}

/** `GET /api/servers`. */
export interface ServersResponse {
  servers: ServerView[];
}

/** `POST /api/servers` (201), `PATCH /api/servers/:name`. */
export interface ServerResponse {
  server: ServerView;
}

/** The body of `POST /api/servers`. */
export interface AddServerRequest {
  name: string;
  entry: Record<string, unknown>;
  enabled?: boolean;
}

/** The body of `PATCH /api/servers/:name`. */
export interface ServerChange {
  entry?: Record<string, unknown>;
  enabled?: boolean;
}

/** `POST /api/servers/:name/login`: open `authorizationUrl`, or nothing to do. */
export type LoginResponse = { status: 'authorize'; authorizationUrl: string } | { status: 'done' };

/** One parameter of a template, as the dashboard renders a field for it. */
export interface TemplateParameterView {
  name: string;
  type: 'string' | 'number' | 'integer' | 'boolean' | 'enum';
  required: boolean;
  description?: string;
  default?: string | number | boolean;
  values?: string[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  secret?: boolean;
}

/** A template as `GET /api/templates` lists it. */
export interface TemplateView {
  name: string;
  description?: string;
  parameters: TemplateParameterView[];
  /** Administrators only. */
  command?: string;
  args?: string[];
}

/** `GET /api/templates`. */
export interface TemplatesResponse {
  templates: TemplateView[];
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

/** A running task of one of the user's servers (`GET /api/tasks`). */
export interface TaskView {
  server: string;
  taskId: string;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  createdAt: string;
  lastUpdatedAt: string;
  statusMessage?: string;
}

/** `GET /api/tasks`. */
export interface TasksResponse {
  tasks: TaskView[];
}

/** `GET /api/tools`. */
export interface ToolsResponse {
  tools: ToolView[];
  /** Bumps on every change of the catalog. */
  version: number;
  /** With `?q=`: the query the tools were ranked for (best match first). */
  query?: string;
}

/** How the user's `/mcp` endpoint offers tools (`GET` / `PUT /api/tool-search`). */
export interface ToolSearchView {
  toolSearch: { mode: 'off' | 'on' | 'auto'; maxTools?: number; maxTokens?: number; pinned?: string[] };
  /** Whether clients on /mcp get search_tools and call_tool now. */
  active: boolean;
  tools: number;
  estimatedTokens: number;
  thresholds: { maxTools: number; maxTokens: number };
}

/** The body of `POST /api/tools/:name/call`. */
export interface CallRequest {
  arguments?: Record<string, unknown>;
}

/** `POST /api/tools/:name/call` (as JSON, or the `result` event of its stream). */
export interface CallAnswer {
  result: ToolResult;
  durationMs: number;
}

/** A `progress` event of a streamed call. */
export interface CallProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** One validation issue, with the same wording as config files. */
export interface ApiIssue {
  path: string;
  message: string;
  hint?: string;
}

/** The `error` object of every failed `/api` answer (`{ error: ApiErrorBody }`). */
export interface ApiErrorBody {
  code: string;
  message: string;
  server?: string;
  hint?: string;
  /** Config problems (400), one per field. */
  issues?: ApiIssue[];
  /** Policy rules that refused the operation (403, `POLICY_VIOLATION`). */
  rules?: string[];
}

/** A failed `/api` answer. */
export interface ApiErrorResponse {
  error: ApiErrorBody;
}

/** A client a user authorized over OAuth (`GET /api/oauth/clients`). */
export interface AuthorizedClientView {
  grantId: string;
  userId: string;
  userName: string;
  clientId: string;
  clientName?: string;
  redirectHost?: string;
  scopes: string[];
  createdAt: string;
  expiresAt?: string;
}

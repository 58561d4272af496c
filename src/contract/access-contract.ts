/**
 * @module contract/access-contract
 * The shapes of the access routes of `/api` (issue 21): endpoints, groups, tool rules, rate limits and
 * calls waiting for approval — what the gateway answers and the dashboard reads (through
 * `api-contract.ts`).
 */

/** `global`, or an endpoint, group or user by name. */
export type ScopeView = { kind: 'global' } | { kind: 'endpoint' | 'group' | 'user'; name: string };

export interface AnnotationFilterView {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  openWorldHint?: boolean;
}

/** `GET /api/endpoints`: one endpoint, its URL and the connection snippets. */
export interface EndpointView {
  name: string;
  description?: string;
  servers?: string[];
  tools?: string[];
  annotations?: AnnotationFilterView;
  renames?: Record<string, string>;
  descriptions?: Record<string, string>;
  naming?: string;
  toolSearch?: string;
  access?: { users?: string[]; groups?: string[] };
  approval?: { writes: boolean; timeoutSeconds?: number };
  ownerId?: string;
  url: string;
  snippets: { claudeDesktop: unknown; cursor: unknown; vscode: unknown };
}

export interface GroupView {
  name: string;
  description?: string;
  members: string[];
}

export interface RuleView {
  id: string;
  scope: ScopeView;
  effect: 'allow' | 'deny';
  tools?: string[];
  servers?: string[];
  annotations?: AnnotationFilterView;
  description?: string;
}

export interface LimitView {
  id: string;
  scope: ScopeView;
  perMinute: number;
  tools?: string[];
  perCaller?: boolean;
  description?: string;
}

/** A call waiting for a person's decision. */
export interface ApprovalView {
  id: string;
  user: string;
  endpoint: string;
  tool: string;
  server: string;
  arguments: Record<string, unknown>;
  createdAt: string;
  expiresAt: string;
}

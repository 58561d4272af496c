/**
 * @module client/multi-server-client-events
 * The events a {@link MultiServerClient} emits, and why its tool set changed.
 */

import type { ServerState } from '../connection/server-state.js';
import type { SwitchboardError } from '../errors.js';
import type { RefusedCallEvent } from './call/refused-call-event.js';
import type { CatalogDiff } from './catalog/routed-catalog.js';

/** Why the tool set changed. */
export type ToolsChangedReason = 'list-changed' | 'server-up' | 'server-down' | 'reload';

/** Events of a {@link MultiServerClient}. */
export interface MultiServerClientEvents {
  'tools-changed': CatalogDiff & { version: number; reason: ToolsChangedReason; server?: string };
  'prompts-changed': CatalogDiff & { version: number; server?: string };
  /** A server's resources changed: its list (no `uri`), or one resource it was subscribed to (`uri`, as the server names it). */
  'resources-changed': { server: string; uri?: string };
  'server-state-change': { server: string; from: ServerState; to: ServerState; error?: SwitchboardError };
  'tool-call-start': { callId: number; name: string; server: string; originalName: string };
  'tool-call-end': { callId: number; name: string; server: string; originalName: string; durationMs: number; ok: boolean; isError: boolean; errorCode?: string };
  /** A call refused before anything was sent (no `tool-call-start` or `tool-call-end` for it). */
  'tool-call-refused': RefusedCallEvent;
  'tool-progress': { callId: number; name: string; server: string; progress: number; total?: number; message?: string };
  'server-log': { server: string; level: string; logger?: string; data: unknown; source: 'mcp' | 'stderr' };
}

/** What the client's parts need of its event emitter. */
export interface ClientEventSink {
  emit<K extends keyof MultiServerClientEvents>(event: K, payload: MultiServerClientEvents[K]): void;
  listenerCount(event: keyof MultiServerClientEvents): number;
}

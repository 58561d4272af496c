/**
 * @module adapters/adapter-client
 * What the adapters need from a client: the cached catalog, calls by exposed name, and the
 * `tools-changed` event. A `MultiServerClient` is one; so is anything with the same members.
 */

import type { MultiServerClient } from '../client/multi-server-client.js';

/** The part of {@link MultiServerClient} the adapters use. */
export type AdapterClient = Pick<MultiServerClient, 'listTools' | 'getTool' | 'callTool' | 'on' | 'off' | 'catalogVersion'>;

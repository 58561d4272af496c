/**
 * @module connection/message-trace
 * The debug log's view of the wire: every JSON-RPC message in (`←`) and out (`→`), tagged with the
 * server, the spec's secret values (env values, header values, OAuth secrets) redacted. Used by
 * connections and by `switchboard doctor`, so both show the same lines.
 */

import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { secretValuesOf, type ServerSpec } from '../config/server-spec.js';
import { isDebugEnabled, type Logger } from '../logger.js';
import { redactSecrets } from './redact.js';

/** Sees one message going out or coming in. */
export type MessageTrace = (direction: 'in' | 'out', message: JSONRPCMessage) => void;

/** A trace that logs each message at debug, or undefined when the logger does not want debug lines. */
export function createMessageTrace(spec: ServerSpec, logger: Logger): MessageTrace | undefined {
  if (!isDebugEnabled(logger)) return undefined;
  const secrets = secretValuesOf(spec);
  const tagged = logger.child({ server: spec.name });
  return (direction, message) => tagged.debug(direction === 'in' ? '←' : '→', { message: redactSecrets(JSON.stringify(message), secrets) });
}

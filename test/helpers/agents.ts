/**
 * Helpers of the agent-adapter tests: real MCP fixture servers behind a MultiServerClient, events
 * awaited with a bound, and a gate that holds a killed server down until the test opens it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MultiServerClient, type MultiServerClientOptions } from '../../src/client/multi-server-client.js';
import { FIXTURES, KITCHEN_SINK } from './fixtures.js';
import { nextEvent as waitForEvent } from './next-event.js';

export const SCHEMA_ZOO = resolve(FIXTURES, 'schema-zoo-server.mjs');
export const GATED_SERVER = resolve(FIXTURES, 'gated-server.mjs');
/** The 1x1 PNG the kitchen-sink `image` tool returns. */
export const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** Client options for tests: fast list_changed, fast background retries. */
export const TEST_CLIENT_OPTIONS: MultiServerClientOptions = { listChangedDebounceMs: 10, retryDelayMs: 20, maxRetryDelayMs: 100 };

/** Resolves with the next `event` whose payload passes `predicate`; rejects after its bound. */
export { waitForEvent };

/** A kitchen-sink server that a test can kill and hold down. */
export interface GatedSink {
  entry: Record<string, unknown>;
  /** Kills the running server and keeps restarts failing until `open()`. */
  killAndHold(client: MultiServerClient, server: string): Promise<void>;
  /** Keeps restarts failing until `open()` (for a test that kills the server itself). */
  hold(): void;
  open(): void;
  cleanup(): void;
}

/** A kitchen-sink config entry wrapped in the gate launcher. */
export function gatedSink(args: string[] = []): GatedSink {
  const directory = mkdtempSync(join(tmpdir(), 'switchboard-gate-'));
  const gate = join(directory, 'closed');
  return {
    // One restart attempt, then the circuit opens (failed) and a probe runs every 200 ms: the server
    // is down for exactly as long as the gate is closed.
    entry: { command: process.execPath, args: [GATED_SERVER, gate, KITCHEN_SINK, ...args], restart: { attempts: 1, delay: '50ms', probeInterval: '200ms' } },
    async killAndHold(client, server) {
      const pid = client.status().find((status) => status.name === server)?.pid;
      if (pid === undefined) throw new Error(`server ${server} has no pid`);
      writeFileSync(gate, 'closed');
      const down = waitForEvent(client, 'server-state-change', (change) => change.server === server && change.to === 'failed');
      process.kill(pid, 'SIGKILL');
      await down;
    },
    hold() {
      writeFileSync(gate, 'closed');
    },
    open() {
      rmSync(gate, { force: true });
    },
    cleanup() {
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Connects a client with the test options. */
export function connectClient(mcpServers: Record<string, Record<string, unknown>>, options: MultiServerClientOptions = {}): Promise<MultiServerClient> {
  return MultiServerClient.connect({ mcpServers }, { ...TEST_CLIENT_OPTIONS, ...options });
}

/**
 * @module gateway/access/access-state
 * The gateway's copy of the access configuration (groups, tool rules, rate limits, endpoints, whether
 * `/mcp` is on), loaded from the registry at start and again after every change — its own, another
 * process's (the registry's change feed), or an unknown one. Reads are synchronous, so listing and
 * calling never wait on the database; `changed` fires after each reload (connected clients are then
 * told their tool list changed).
 */

import type { Logger } from '../../logger.js';
import type { EndpointRecord, RateLimit, RegistryChange, ServerRegistry, ToolRule } from '../../registry/index.js';
import { TypedEmitter } from '../../util/typed-emitter.js';

/** One loaded version of the access configuration. */
export interface AccessSnapshot {
  /** Moves on every reload (list caches key on it). */
  version: number;
  rules: readonly ToolRule[];
  limits: readonly RateLimit[];
  endpoints: ReadonlyMap<string, EndpointRecord>;
  /** Group names by user id. */
  groups: ReadonlyMap<string, readonly string[]>;
  everythingEndpoint: boolean;
}

/** Events of an {@link AccessState}. */
export interface AccessStateEvents {
  changed: { snapshot: AccessSnapshot; previous: AccessSnapshot };
}

const EMPTY: AccessSnapshot = { version: 0, rules: [], limits: [], endpoints: new Map(), groups: new Map(), everythingEndpoint: true };

/** The access configuration, kept current. */
export class AccessState extends TypedEmitter<AccessStateEvents> {
  readonly #registry: ServerRegistry;
  readonly #logger: Logger;
  readonly #onChange: (change: RegistryChange) => void;
  #snapshot: AccessSnapshot = EMPTY;
  #loading: Promise<void> | undefined;
  #again = false;
  #closed = false;

  constructor(registry: ServerRegistry, logger: Logger) {
    super();
    this.#registry = registry;
    this.#logger = logger;
    this.#onChange = (change) => {
      // Removed users leave groups; anything unknown may have touched the tables.
      if (change.kind === 'access' || change.kind === 'unknown' || change.kind === 'user') void this.reload();
    };
    registry.on('change', this.#onChange);
  }

  /** The configuration in force. */
  get current(): AccessSnapshot {
    return this.#snapshot;
  }

  /** Loads again (one load at a time; changes during a load cause one more). Resolves when current. */
  reload(): Promise<void> {
    if (this.#loading !== undefined) {
      this.#again = true;
      return this.#loading;
    }
    this.#loading = (async () => {
      do {
        this.#again = false;
        try {
          await this.#load();
        } catch (error) {
          // The previous configuration stays in force until a load succeeds.
          if (!this.#closed) this.#logger.warn('cannot load the access rules; the previous ones stay in force', { error: String(error) });
        }
      } while (this.#again && !this.#closed);
      this.#loading = undefined;
    })();
    return this.#loading;
  }

  /** Stops following the registry. */
  close(): void {
    this.#closed = true;
    this.#registry.off('change', this.#onChange);
    this.removeAllListeners();
  }

  async #load(): Promise<void> {
    const [rules, limits, endpoints, groups, everythingEndpoint] = await Promise.all([
      this.#registry.access.listRules(),
      this.#registry.access.listLimits(),
      this.#registry.access.listEndpoints(),
      this.#registry.groups.memberships(),
      this.#registry.access.everythingEndpoint(),
    ]);
    if (this.#closed) return;
    const previous = this.#snapshot;
    this.#snapshot = { version: previous.version + 1, rules, limits, endpoints: new Map(endpoints.map((endpoint) => [endpoint.name, endpoint])), groups, everythingEndpoint };
    this.emit('changed', { snapshot: this.#snapshot, previous });
  }
}

/**
 * @module connection/oauth-hook
 * The OAuth layer of one HTTP connection, created on first need (its module loads the SDK's OAuth
 * client) and kept across reconnects, so are its tokens. The only place connection reaches into
 * `auth/`, one way.
 */

import type { FetchLike } from '@modelcontextprotocol/client';
import type { OAuthAuthorizer } from '../auth/oauth-authorizer.js';
import type { ServerSpec } from '../config/server-spec.js';
import type { Logger } from '../logger.js';
import type { ServerConnectionOptions } from './server-connection-options.js';

/** Lazily creates (or declines to create) the authorizer of one server. */
export class OAuthHook {
  readonly #spec: ServerSpec;
  readonly #options: ServerConnectionOptions;
  readonly #logger: Logger;
  /** null: this connection has no OAuth layer. */
  #authorizer: OAuthAuthorizer | null | undefined;

  constructor(spec: ServerSpec, options: ServerConnectionOptions, logger: Logger) {
    this.#spec = spec;
    this.#options = options;
    this.#logger = logger;
  }

  /** The authorizer, if it was created and there is one. */
  get current(): OAuthAuthorizer | undefined {
    return this.#authorizer ?? undefined;
  }

  /** Undefined for stdio servers, and when an `authProvider` is given or the server needs no OAuth settings. */
  async authorizer(): Promise<OAuthAuthorizer | undefined> {
    if (this.#authorizer === undefined) {
      if (this.#spec.type !== 'http' || this.#options.authProvider !== undefined) {
        this.#authorizer = null;
      } else {
        const { createOAuthAuthorizer } = await import('../auth/create-oauth-authorizer.js');
        this.#authorizer ??= createOAuthAuthorizer(this.#spec, this.#options.oauth, { fetch: this.#options.fetch ?? globalThis.fetch, logger: this.#logger }) ?? null;
      }
    }
    return this.#authorizer ?? undefined;
  }

  /** The fetch HTTP requests use: the authorizer's, else the one given, else the default. */
  async fetch(): Promise<FetchLike | undefined> {
    return (await this.authorizer())?.fetch ?? this.#options.fetch;
  }
}

/**
 * @module adapters/catalog-view
 * A value derived from a client's tool catalog (framework tool objects, provider definitions), rebuilt
 * lazily when the catalog version moves, with `tools-changed` forwarded to the adapter's listeners.
 * Shared by the toolsets of every adapter.
 */

import type { CatalogTool, MultiServerClientEvents } from '../client/multi-server-client.js';
import type { AdapterClient } from './adapter-client.js';

/** What changed in the tool catalog (the payload of the client's `tools-changed` event). */
export type ToolsChange = MultiServerClientEvents['tools-changed'];

/** A value built from the current catalog; see the module doc. */
export class CatalogView<T> {
  readonly #client: AdapterClient;
  readonly #build: (tools: CatalogTool[]) => T;
  readonly #listeners = new Set<(change: ToolsChange) => void>();
  #version = -1;
  #value: T | undefined;
  #closed = false;
  readonly #onToolsChanged = (change: ToolsChange): void => {
    for (const listener of [...this.#listeners]) listener(change);
  };

  constructor(client: AdapterClient, build: (tools: CatalogTool[]) => T) {
    this.#client = client;
    this.#build = build;
  }

  /** The value for the catalog as it is now (built again only after a change). */
  get current(): T {
    const version = this.#client.catalogVersion;
    if (this.#value === undefined || version !== this.#version) {
      this.#value = this.#build(this.#client.listTools());
      this.#version = version;
    }
    return this.#value;
  }

  /** The catalog version `current` was built from (-1 before the first build). */
  get version(): number {
    return this.#version;
  }

  /** Calls `listener` after each catalog change; returns the unsubscribe function. */
  onChange(listener: (change: ToolsChange) => void): () => void {
    if (this.#closed) return () => {};
    if (this.#listeners.size === 0) this.#client.on('tools-changed', this.#onToolsChanged);
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.#client.off('tools-changed', this.#onToolsChanged);
    };
  }

  /** Removes every listener from the client. Idempotent; `current` keeps working. */
  close(): void {
    this.#closed = true;
    this.#listeners.clear();
    this.#client.off('tools-changed', this.#onToolsChanged);
  }
}

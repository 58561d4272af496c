/**
 * @module gateway/oauth-server/registry-adapter
 * `oidc-provider`'s storage adapter over the registry ({@link OAuthServerStore}): one instance per
 * model name. Dynamically registered clients that go unused expire (their expiry moves forward each
 * time a user grants them access or they get an access token).
 */

import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { OAuthServerStore } from '../../registry/index.js';

/** Options of {@link registryAdapterFactory}. */
export interface RegistryAdapterOptions {
  /** A dynamically registered client nobody grants access to for this long is forgotten; undefined: never. */
  unusedClientTtlMs?: number;
}

/** The adapter class oidc-provider instantiates per model. */
export function registryAdapterFactory(store: OAuthServerStore, options: RegistryAdapterOptions = {}): (model: string) => Adapter {
  return (model) => new RegistryAdapter(model, store, options);
}

class RegistryAdapter implements Adapter {
  readonly #model: string;
  readonly #store: OAuthServerStore;
  readonly #options: RegistryAdapterOptions;

  constructor(model: string, store: OAuthServerStore, options: RegistryAdapterOptions) {
    this.#model = model;
    this.#store = store;
    this.#options = options;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    let expiresInS = expiresIn;
    const ttlMs = this.#options.unusedClientTtlMs;
    if (this.#model === 'Client' && expiresInS === undefined && ttlMs !== undefined) expiresInS = Math.ceil(ttlMs / 1000);
    await this.#store.upsert(this.#model, id, payload, expiresInS);
    // A consent or a new access token (also from a refresh) is use.
    if ((this.#model === 'Grant' || this.#model === 'AccessToken') && ttlMs !== undefined && typeof payload.clientId === 'string') await this.#store.touchClient(payload.clientId, ttlMs);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const payload = await this.#store.find(this.#model, id);
    // The stored payload has no id (for codes and tokens the id is the secret): put it back.
    return payload === undefined ? undefined : this.#model === 'Client' ? payload : { ...payload, jti: id };
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    // Only sessions are found by uid; their id is the session cookie, which oidc-provider keeps in the payload's `jti`.
    return this.#store.findByUid(this.#model, uid);
  }

  findByUserCode(): Promise<AdapterPayload | undefined> {
    // The device flow is not enabled.
    return Promise.resolve(undefined);
  }

  consume(id: string): Promise<void> {
    return this.#store.consume(this.#model, id);
  }

  destroy(id: string): Promise<void> {
    return this.#store.destroy(this.#model, id);
  }

  revokeByGrantId(grantId: string): Promise<void> {
    return this.#store.revokeByGrantId(grantId);
  }
}

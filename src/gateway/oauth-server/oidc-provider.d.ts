/**
 * @module gateway/oauth-server/oidc-provider
 * The parts of `oidc-provider` (which ships no types) that the gateway uses, typed as narrowly as
 * its documentation describes them.
 */

declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type AdapterPayload = Record<string, unknown>;

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface KoaContextLike {
    path: string;
    method: string;
    status: number;
    body: unknown;
    oidc?: { route?: string; params?: Record<string, unknown>; client?: ClientLike };
    set(name: string, value: string): void;
  }

  export interface ClientLike {
    clientId: string;
    clientName?: string;
    redirectUris: string[];
    applicationType?: string;
    grantTypeAllowed(type: string): boolean;
    metadata(): Record<string, unknown>;
  }

  export interface AccessTokenLike {
    jti: string;
    accountId: string;
    clientId: string;
    aud?: string | string[];
    scope?: string;
    exp?: number;
    grantId?: string;
    /** The thumbprint of the DPoP key a bound token is bound to. */
    jkt?: string;
    isExpired: boolean;
  }

  export interface GrantLike {
    accountId: string;
    clientId: string;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; details: Record<string, unknown>; reasons: string[] };
    params: Record<string, unknown>;
    session?: { accountId: string };
    grantId?: string;
    returnTo: string;
  }

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    issuer: string;
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    use(middleware: (ctx: KoaContextLike, next: () => Promise<void>) => Promise<void>): void;
    on(event: string, listener: (...args: unknown[]) => void): void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionResult(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<string>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
    AccessToken: { find(token: string): Promise<AccessTokenLike | undefined> };
    Client: { find(id: string): Promise<ClientLike | undefined> };
    Grant: { new (init: { accountId: string; clientId: string }): GrantLike; find(id: string): Promise<GrantLike | undefined> };
  }

  export class OIDCProviderError extends Error {
    constructor(status: number, message: string);
    error: string;
    error_description?: string;
    status: number;
  }

  export const errors: {
    InvalidTarget: new (description?: string) => OIDCProviderError;
    InvalidClientMetadata: new (description?: string) => OIDCProviderError;
    InvalidRequest: new (description?: string) => OIDCProviderError;
    AccessDenied: new (description?: string) => OIDCProviderError;
  };

  export default Provider;
}

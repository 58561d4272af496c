/**
 * An `OAuthClientProvider` (the SDK's client side of OAuth) that keeps everything in memory and hands
 * the authorization URL to the test (which drives the browser), as a desktop client would open it.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

export class MemoryOAuthClient implements OAuthClientProvider {
  readonly redirectUrl: string;
  client: OAuthClientInformationMixed | undefined;
  stored: OAuthTokens | undefined;
  verifier: string | undefined;
  /** The authorization URLs the SDK asked to open, in order. */
  readonly authorizations: URL[] = [];
  readonly #scope: string | undefined;

  constructor(redirectUrl: string, scope?: string) {
    this.redirectUrl = redirectUrl;
    this.#scope = scope;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'SDK v1 <test> client', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', ...(this.#scope === undefined ? {} : { scope: this.#scope }) };
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.client = info;
  }
  tokens(): OAuthTokens | undefined {
    return this.stored;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL): void {
    this.authorizations.push(url);
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('no code verifier saved');
    return this.verifier;
  }
}

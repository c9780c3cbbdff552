// An OAuthClientProvider for the SDK's own client, kept in memory, whose "browser redirect" is
// recorded so the test can play the consent step over HTTP.
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

export class MemoryProvider implements OAuthClientProvider {
  #client: OAuthClientInformationMixed | undefined;
  #tokens: OAuthTokens | undefined;
  #verifier = '';
  #state: string;
  readonly redirectUrl: string;
  readonly clientMetadata: OAuthClientMetadata;
  authorizationUrl: URL | undefined;

  constructor(redirectUrl: string, metadata: OAuthClientMetadata, state = 'st-' + Math.random().toString(36).slice(2)) {
    this.redirectUrl = redirectUrl;
    this.clientMetadata = metadata;
    this.#state = state;
  }
  state() {
    return this.#state;
  }
  clientInformation() {
    return this.#client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.#client = info;
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens: OAuthTokens) {
    this.#tokens = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.#verifier = verifier;
  }
  codeVerifier() {
    return this.#verifier;
  }
}

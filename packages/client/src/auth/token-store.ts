/** What a host keeps per protected resource between runs: the tokens and the client they belong to. */
export interface StoredAuthorization {
  /** The authorization server (its `issuer`) that issued the tokens. */
  readonly issuer: string;
  /** The client identity used at that server (pre-registered, a metadata document URL, or registered). */
  readonly clientId: string;
  readonly clientSecret?: string;
  readonly tokenEndpointAuthMethod?: string;
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** The scope the tokens were granted (space-separated), when known. */
  readonly scope?: string;
  /** When the access token expires (epoch ms), when the server said. */
  readonly expiresAt?: number;
}

/**
 * Where tokens live, keyed by the canonical resource URI (RFC 8707) of the MCP server, so a token
 * is only ever sent to the resource it was issued for. Implement it over a keychain or a file.
 */
export interface TokenStore {
  /** The tokens kept for `resource`, if any. */
  get(resource: string): Promise<StoredAuthorization | undefined> | StoredAuthorization | undefined;
  /** Keeps new tokens for `resource` (after a code exchange, a refresh or a step-up). */
  set(resource: string, value: StoredAuthorization): Promise<void> | void;
  /** Forgets the tokens for `resource` (sign-out). */
  delete(resource: string): Promise<void> | void;
}

/** A {@link TokenStore} in memory: tokens last as long as the process. */
export class MemoryTokenStore implements TokenStore {
  private readonly entries = new Map<string, StoredAuthorization>();
  /** The tokens for `resource`, if any. */
  get(resource: string): StoredAuthorization | undefined {
    return this.entries.get(resource);
  }
  /** Keeps the tokens for `resource`. */
  set(resource: string, value: StoredAuthorization): void {
    this.entries.set(resource, value);
  }
  /** Forgets the tokens for `resource`. */
  delete(resource: string): void {
    this.entries.delete(resource);
  }
}

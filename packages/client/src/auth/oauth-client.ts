import * as oauth from 'oauth4webapi';
import type { BearerChallenge } from '../errors.js';
import { parseBearerChallenge } from '../transports/bearer-challenge.js';
import { AuthorizationError } from './authorization-error.js';
import { clientSecretBasic } from './client-secret-basic.js';
import { canonicalResource, discoverAuthorizationServer, discoverProtectedResource, isLoopback, type ProtectedResourceMetadata } from './discovery.js';
import { MemoryTokenStore, type StoredAuthorization, type TokenStore } from './token-store.js';

/**
 * The host's part of the authorization code flow: show `authorizationUrl` to the user (open a
 * browser) and resolve to the URL the authorization server redirected to (with `code` and
 * `state`), e.g. from a loopback listener or a pasted URL.
 */
export type AuthorizeStep = (authorizationUrl: URL, redirectUri: string) => Promise<string | URL>;

/** A client registered with the authorization server beforehand. */
export interface PreRegisteredClient {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** How the client authenticates at the token endpoint (default: `client_secret_basic` with a secret, else `none`). */
  readonly tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'none';
}

/** OAuth 2.1 for Streamable HTTP servers (MCP authorization): who the client is and how the user authorizes. */
export interface OAuthOptions {
  /** Where the authorization server sends the user back (registered for the client). */
  readonly redirectUri: string;
  /** Shows the authorization URL to the user and resolves to the redirect URL. */
  readonly authorize: AuthorizeStep;
  /** An HTTPS URL of this client's Client ID Metadata Document, used as `client_id` where the server supports it. */
  readonly clientMetadataUrl?: string;
  /** A pre-registered client, used before a metadata document or dynamic registration. */
  readonly client?: PreRegisteredClient;
  /** Metadata for dynamic registration (RFC 7591), used only when nothing else is possible. */
  readonly clientName?: string;
  /** Where tokens are kept (default: in memory). */
  readonly store?: TokenStore;
  /** How many times one request may step up its scope after 403 `insufficient_scope` (default 2). */
  readonly maxStepUps?: number;
  /** Another `fetch` for the OAuth requests (default: the global one). */
  readonly fetch?: typeof fetch;
}

function bearerChallenge(response: Response): BearerChallenge {
  return parseBearerChallenge(response.headers.get('www-authenticate'));
}

/** An OAuth error's own words (`invalid_grant: code already used`) where the server gave them. */
function explain(error: unknown): string {
  const e = error as { error?: unknown; error_description?: unknown; message?: string };
  if (typeof e.error === 'string') return typeof e.error_description === 'string' ? `${e.error}: ${e.error_description}` : e.error;
  return e.message ?? String(error);
}

/** How long before its `expiresAt` a token counts as expired (clock skew, the request's own time in flight). */
const EXPIRY_LEEWAY_MS = 10_000;

function expired(stored: StoredAuthorization): boolean {
  return stored.expiresAt !== undefined && Date.now() >= stored.expiresAt - EXPIRY_LEEWAY_MS;
}

/** What discovery found for the resource: its metadata and its authorization server's. */
interface Discovered {
  readonly prm: ProtectedResourceMetadata;
  readonly as: oauth.AuthorizationServer;
}

function unionScopes(...scopes: (string | undefined)[]): string | undefined {
  const all = new Set(scopes.flatMap((s) => (s ? s.split(' ').filter(Boolean) : [])));
  return all.size ? [...all].join(' ') : undefined;
}

/**
 * The OAuth client of one MCP server: discovers its authorization server from a 401 challenge,
 * runs the authorization code flow with PKCE (S256) and the `resource` parameter, refreshes and
 * steps up tokens, and keeps them in the {@link TokenStore} under the server's resource URI.
 * The flows themselves are oauth4webapi's.
 */
export class OAuthClient {
  private readonly store: TokenStore;
  private readonly fetchImpl: typeof fetch;
  private readonly resource: string;
  private discovered: Discovered | undefined;
  private renewing: Promise<StoredAuthorization> | undefined;

  constructor(
    readonly serverUrl: URL,
    private readonly options: OAuthOptions,
  ) {
    this.store = options.store ?? new MemoryTokenStore();
    this.fetchImpl = options.fetch ?? fetch;
    this.resource = canonicalResource(serverUrl);
  }

  /**
   * A `fetch` for the HTTP transport: adds the bearer token (refreshed first when it has
   * expired), and on 401 (or 403 `insufficient_scope`) authorizes and retries the request.
   */
  fetch(base: typeof fetch = fetch): typeof fetch {
    return async (input, init) => {
      let stepUps = 0;
      let authorized = false;
      for (;;) {
        let stored = await this.store.get(this.resource);
        if (stored && !authorized && expired(stored)) stored = await this.renewExpired(stored);
        const headers = new Headers(init?.headers);
        if (stored) headers.set('authorization', `Bearer ${stored.accessToken}`);
        const response = await base(input, { ...init, headers });
        if (response.status === 401 && !authorized) {
          authorized = true;
          await response.body?.cancel();
          await this.authorize(bearerChallenge(response), stored, false);
          continue;
        }
        if (response.status === 403) {
          const challenge = bearerChallenge(response);
          if (challenge.error === 'insufficient_scope' && stepUps < (this.options.maxStepUps ?? 2)) {
            stepUps++;
            await response.body?.cancel();
            await this.authorize(challenge, stored, true);
            continue;
          }
        }
        return response;
      }
    };
  }

  private http<T extends object>(url: string, extra: T): T & { [oauth.customFetch]: typeof fetch; [oauth.allowInsecureRequests]?: boolean } {
    return { ...extra, [oauth.customFetch]: this.fetchImpl, ...(isLoopback(new URL(url)) && { [oauth.allowInsecureRequests]: true }) };
  }

  /** Gets a token for the challenge: a refresh where possible, else the full authorization code flow. */
  async authorize(challenge: BearerChallenge, stored: StoredAuthorization | undefined, stepUp: boolean): Promise<StoredAuthorization> {
    const { prm, as } = await this.discover(challenge.resourceMetadata);
    const resource = prm.resource;
    // Tokens, refresh token and client identity belong to the server that issued them: when the
    // resource names another one now (a migration), none of them goes there; a fresh flow runs.
    const sameServer = stored?.issuer === as.issuer;

    if (!stepUp && sameServer && stored?.refreshToken) {
      const refreshed = await this.refresh(as, stored, resource).catch(() => undefined);
      if (refreshed) return refreshed;
    }

    const client = sameServer
      ? { clientId: stored.clientId, clientSecret: stored.clientSecret, tokenEndpointAuthMethod: stored.tokenEndpointAuthMethod }
      : await this.identify(as);
    const scope = this.scopeFor(challenge, prm, as, stepUp ? stored?.scope : undefined);
    return this.codeFlow(as, client, resource, scope);
  }

  /** The resource's metadata (from the challenge's URL, else the well-known ones) and its authorization server's. */
  private async discover(resourceMetadata: string | undefined): Promise<Discovered> {
    const prm = await discoverProtectedResource(this.serverUrl, resourceMetadata, this.fetchImpl);
    const issuer = prm.authorization_servers?.[0];
    if (!issuer) throw new AuthorizationError(`The protected-resource metadata of ${this.resource} names no authorization server`);
    const as = await discoverAuthorizationServer(issuer, this.fetchImpl);
    this.discovered = { prm, as };
    return this.discovered;
  }

  /** One refresh of an expired token at a time, shared by the requests that found it expired. */
  private renewExpired(stored: StoredAuthorization): Promise<StoredAuthorization> {
    this.renewing ??= this.renew(stored).finally(() => (this.renewing = undefined));
    return this.renewing;
  }

  /**
   * Refreshes a token past its `expiresAt` before it is sent, saving the 401 round trip. Whatever
   * stands in the way (no refresh token, no metadata without a challenge, another authorization
   * server) leaves the token as it is: the 401 that follows takes the usual path. A refused
   * refresh token is dropped from the copy returned, so that path goes straight to the full flow.
   */
  private async renew(stored: StoredAuthorization): Promise<StoredAuthorization> {
    if (!stored.refreshToken) return stored;
    let found: Discovered;
    try {
      found = this.discovered ?? (await this.discover(undefined));
    } catch {
      return stored;
    }
    if (found.as.issuer !== stored.issuer) return stored;
    try {
      return await this.refresh(found.as, stored, found.prm.resource);
    } catch {
      const { refreshToken: _refused, ...rest } = stored;
      return rest;
    }
  }

  /** Scope: the challenge's, else the resource's `scopes_supported`, else none; `offline_access` when the server offers it. */
  private scopeFor(challenge: BearerChallenge, prm: ProtectedResourceMetadata, as: oauth.AuthorizationServer, held: string | undefined): string | undefined {
    const asked = challenge.scopes?.join(' ') ?? prm.scopes_supported?.join(' ');
    const scope = unionScopes(held, asked);
    if (!scope) return undefined;
    return as.scopes_supported?.includes('offline_access') ? unionScopes(scope, 'offline_access') : scope;
  }

  /** Who the client is at `as`: pre-registered, then a Client ID Metadata Document, then dynamic registration. */
  private async identify(as: oauth.AuthorizationServer): Promise<{ clientId: string; clientSecret?: string; tokenEndpointAuthMethod?: string }> {
    if (this.options.client) return this.options.client;
    if (this.options.clientMetadataUrl && as.client_id_metadata_document_supported === true)
      return { clientId: this.options.clientMetadataUrl, tokenEndpointAuthMethod: 'none' };
    if (!as.registration_endpoint)
      throw new AuthorizationError(
        `The authorization server ${as.issuer} supports neither Client ID Metadata Documents nor dynamic registration, and no pre-registered client was given`,
      );
    const supported = as.token_endpoint_auth_methods_supported;
    const method = supported ? ['client_secret_basic', 'client_secret_post', 'none'].find((m) => supported.includes(m)) : undefined;
    const response = await oauth.dynamicClientRegistrationRequest(
      as,
      {
        redirect_uris: [this.options.redirectUri],
        client_name: this.options.clientName ?? 'Decorum MCP client',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        application_type: isLoopback(new URL(this.options.redirectUri)) ? 'native' : 'web',
        ...(method && { token_endpoint_auth_method: method }),
      },
      this.http(as.registration_endpoint, {}),
    );
    // Read by hand rather than with processDynamicClientRegistrationResponse: that one refuses a
    // response without `client_secret_expires_at`, which servers commonly omit (the suite's does).
    const registered = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if ((response.status !== 201 && response.status !== 200) || typeof registered?.client_id !== 'string') {
      throw new AuthorizationError(
        `Dynamic client registration at ${as.registration_endpoint} failed (HTTP ${response.status}${typeof registered?.error === 'string' ? `, ${registered.error}` : ''})`,
      );
    }
    return {
      clientId: registered.client_id,
      clientSecret: registered.client_secret as string | undefined,
      tokenEndpointAuthMethod: (registered.token_endpoint_auth_method as string | undefined) ?? method,
    };
  }

  private clientAuth(as: oauth.AuthorizationServer, client: { clientSecret?: string; tokenEndpointAuthMethod?: string }): oauth.ClientAuth {
    const supported = as.token_endpoint_auth_methods_supported;
    const method =
      client.tokenEndpointAuthMethod ??
      (!client.clientSecret
        ? 'none'
        : supported && !supported.includes('client_secret_basic') && supported.includes('client_secret_post')
          ? 'client_secret_post'
          : 'client_secret_basic');
    if (method === 'none' || !client.clientSecret) return oauth.None();
    return method === 'client_secret_post' ? oauth.ClientSecretPost(client.clientSecret) : clientSecretBasic(client.clientSecret);
  }

  private async codeFlow(
    as: oauth.AuthorizationServer,
    client: { clientId: string; clientSecret?: string; tokenEndpointAuthMethod?: string },
    resource: string,
    scope: string | undefined,
  ): Promise<StoredAuthorization> {
    if (!as.authorization_endpoint || !as.token_endpoint)
      throw new AuthorizationError(`The authorization server ${as.issuer} has no authorization or token endpoint`);
    if (as.code_challenge_methods_supported && !as.code_challenge_methods_supported.includes('S256')) {
      throw new AuthorizationError(`The authorization server ${as.issuer} does not support PKCE with S256`);
    }
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', client.clientId);
    url.searchParams.set('redirect_uri', this.options.redirectUri);
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set('code_challenge_method', 'S256');
    url.searchParams.set('state', state);
    url.searchParams.set('resource', resource);
    if (scope) url.searchParams.set('scope', scope);

    const redirected = new URL(await this.options.authorize(url, this.options.redirectUri));
    const oauthClient: oauth.Client = { client_id: client.clientId };
    let callback: URLSearchParams;
    try {
      callback = oauth.validateAuthResponse(as, oauthClient, redirected, state);
    } catch (error) {
      throw new AuthorizationError(`The authorization response was refused: ${(error as Error).message}`, { cause: error });
    }
    try {
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        oauthClient,
        this.clientAuth(as, client),
        callback,
        this.options.redirectUri,
        verifier,
        this.http(as.token_endpoint, { additionalParameters: { resource } }),
      );
      const tokens = await oauth.processAuthorizationCodeResponse(as, oauthClient, response);
      return this.keep(as, client, tokens, scope);
    } catch (error) {
      throw new AuthorizationError(`The token endpoint of ${as.issuer} refused the authorization code: ${explain(error)}`, { cause: error });
    }
  }

  private async refresh(as: oauth.AuthorizationServer, stored: StoredAuthorization, resource: string): Promise<StoredAuthorization> {
    const oauthClient: oauth.Client = { client_id: stored.clientId };
    const response = await oauth.refreshTokenGrantRequest(
      as,
      oauthClient,
      this.clientAuth(as, stored),
      stored.refreshToken!,
      this.http(as.token_endpoint!, { additionalParameters: { resource } }),
    );
    const tokens = await oauth.processRefreshTokenResponse(as, oauthClient, response);
    return this.keep(as, stored, { refresh_token: stored.refreshToken, ...tokens } as oauth.TokenEndpointResponse, stored.scope);
  }

  private async keep(
    as: oauth.AuthorizationServer,
    client: { clientId: string; clientSecret?: string; tokenEndpointAuthMethod?: string },
    tokens: oauth.TokenEndpointResponse,
    scope: string | undefined,
  ): Promise<StoredAuthorization> {
    const value: StoredAuthorization = {
      issuer: as.issuer,
      clientId: client.clientId,
      ...(client.clientSecret && { clientSecret: client.clientSecret }),
      ...(client.tokenEndpointAuthMethod && { tokenEndpointAuthMethod: client.tokenEndpointAuthMethod }),
      accessToken: tokens.access_token,
      ...(tokens.refresh_token && { refreshToken: tokens.refresh_token }),
      ...((tokens.scope ?? scope) && { scope: tokens.scope ?? scope }),
      ...(tokens.expires_in !== undefined && { expiresAt: Date.now() + tokens.expires_in * 1000 }),
    };
    await this.store.set(this.resource, value);
    return value;
  }
}

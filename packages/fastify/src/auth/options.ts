import type { AuthInfo } from '@decorum/core';
import type { CryptoKey, JSONWebKeySet, JWK, KeyObject } from 'jose';

/** How bearer JWTs are checked: signature against the authorization server's keys, then claims. */
export interface JwtValidationOptions {
  /**
   * The expected `iss`, compared exactly. Default: any of `authorizationServers` (which are
   * issuer identifiers in RFC 8414's sense).
   */
  readonly issuer?: string | readonly string[];
  /**
   * Where the authorization server publishes its keys (`jwks_uri` of its metadata). Fetched on
   * demand and cached by `jose`'s `createRemoteJWKSet`.
   */
  readonly jwksUri?: string | URL;
  /** A key set held locally instead (tests, air-gapped deployments). */
  readonly jwks?: JSONWebKeySet;
  /** A single verification key instead (a public `CryptoKey`, `KeyObject` or JWK). */
  readonly key?: CryptoKey | KeyObject | JWK | Uint8Array;
  /**
   * The signature algorithms accepted (default `RS256`, `ES256`, `PS256`, `EdDSA`). `none` is
   * never accepted.
   */
  readonly algorithms?: readonly string[];
  /** Leeway for `exp` and `nbf`, in seconds (default 30). */
  readonly clockToleranceSec?: number;
  /** When set, the JWT header's `typ` must equal it (e.g. `at+jwt`, RFC 9068). Default: not checked. */
  readonly typ?: string;
}

/**
 * OAuth 2.1 resource-server settings of `mcpPlugin` (MCP authorization, RFC 9728 / RFC 8707).
 * Give exactly one of `jwt` (validate JWT access tokens locally) or `verify` (your own check,
 * e.g. RFC 7662 token introspection).
 */
export interface McpAuthOptions {
  /**
   * The canonical URI of this MCP endpoint, exactly as clients use it
   * (`https://mcp.example.com/mcp`): the audience tokens must name, and `resource` in the
   * protected-resource metadata. Absolute http(s), no fragment, no query.
   */
  readonly resource: string;
  /** Issuer identifiers of the authorization servers that issue tokens for it (at least one). */
  readonly authorizationServers: readonly string[];
  /** Scopes every request needs, whatever it calls (default none). */
  readonly requiredScopes?: readonly string[];
  /** `resource_name` of the metadata document. */
  readonly resourceName?: string;
  /** `resource_documentation` of the metadata document (a URL). */
  readonly resourceDocumentation?: string;
  /**
   * Refuse tokens that name no caller — a JWT without a string `sub`, a `verify` result without
   * `principal` — with 401 `invalid_token` (default true). Such callers would all be one
   * principal, `undefined`, and share what is bound to it (MRTR state). Set `false` only when
   * every caller is the same party (client-credentials tokens of one client, say).
   */
  readonly requireSubject?: boolean;
  /** Validate JWT access tokens locally against the authorization server's keys. */
  readonly jwt?: JwtValidationOptions;
  /**
   * Verify a bearer token yourself: resolve to the caller, or `undefined` to answer 401
   * `invalid_token`. Check the audience yourself; if `claims.aud` is present the plugin checks it
   * names `resource` too. A hook that throws answers 500 (and is logged, without the token).
   */
  verify?(token: string): Promise<AuthInfo | undefined> | AuthInfo | undefined;
}

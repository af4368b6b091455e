import { DecorumStartupError, StartupErrorCode, type AuthInfo } from '@decorum/core';
import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { JwtValidationOptions, McpAuthOptions } from './options.js';
import { normalizeAudience, type ResourceUri } from './metadata.js';

/** The JWS algorithms accepted when `jwt.algorithms` is not given (asymmetric only). */
export const DEFAULT_ALGORITHMS: readonly string[] = Object.freeze(['RS256', 'ES256', 'PS256', 'EdDSA']);
/** Seconds of clock skew allowed for `exp` and `nbf` when `jwt.clockToleranceSec` is not given. */
export const DEFAULT_CLOCK_TOLERANCE_SEC = 30;

/** The outcome of checking a token: the caller, or why the token is refused (for `error_description`). */
export type Verification = { readonly auth: AuthInfo } | { readonly rejected: string };

/** Checks one bearer token. Throws only for failures that are not the token's (JWKS unreachable, a hook that threw). */
export type TokenVerifier = (token: string) => Promise<Verification>;

function fail(message: string): never {
  throw new DecorumStartupError(StartupErrorCode.INVALID_AUTH, `mcpPlugin auth: ${message}`);
}

/** Scopes of a token: its `scope` claim split on spaces (RFC 9068), else its `scp` claim (array or string). */
export function scopesOfClaims(claims: Readonly<Record<string, unknown>>): readonly string[] {
  const source = claims.scope ?? claims.scp;
  const list = typeof source === 'string' ? source.split(' ') : Array.isArray(source) ? source : [];
  return Object.freeze([...new Set(list.filter((scope): scope is string => typeof scope === 'string' && scope !== ''))]);
}

/** True when the `aud` value (string or array) names this resource (RFC 8707), compared in normal form. */
export function audienceNames(aud: unknown, resource: ResourceUri): boolean {
  const values = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
  return values.some((value) => typeof value === 'string' && (value === resource.configured || normalizeAudience(value) === resource.normalized));
}

function wrongAudience(resource: ResourceUri): string {
  return `the access token's audience (aud) does not name this resource, ${resource.configured}; request the token with resource=${resource.configured} (RFC 8707)`;
}

/** Builds the verifier the options ask for; every option is checked here, at start-up. */
export function createVerifier(options: McpAuthOptions, resource: ResourceUri): TokenVerifier {
  const { jwt, verify } = options;
  if ((jwt === undefined) === (verify === undefined)) fail('give exactly one of jwt (validate JWT access tokens) or verify (your own token check)');
  if (verify !== undefined) {
    if (typeof verify !== 'function') fail('verify must be a function (token) => AuthInfo | undefined');
    return hookVerifier(verify, resource, options.requireSubject ?? true);
  }
  return jwtVerifier(jwt!, options.authorizationServers, resource, options.requireSubject ?? true);
}

/** Why a token that names no caller is refused (`requireSubject`). */
const NO_SUBJECT = 'the access token names no subject (sub); tokens must identify their caller';
const hasSubject = (principal: unknown): boolean => typeof principal === 'string' && principal !== '';

function hookVerifier(verify: NonNullable<McpAuthOptions['verify']>, resource: ResourceUri, requireSubject: boolean): TokenVerifier {
  return async (token) => {
    const info = await verify(token);
    if (info === undefined || info === null) return { rejected: 'the access token is not valid (expired, revoked or unknown)' };
    const claims = Object.freeze({ ...(info.claims ?? {}) });
    if (claims.aud !== undefined && !audienceNames(claims.aud, resource)) return { rejected: wrongAudience(resource) };
    if (requireSubject && !hasSubject(info.principal)) return { rejected: NO_SUBJECT };
    const scopes = Array.isArray(info.scopes) ? Object.freeze([...info.scopes]) : scopesOfClaims(claims);
    return { auth: Object.freeze({ principal: info.principal, scopes, claims }) };
  };
}

function keyResolver(jwt: JwtValidationOptions): JWTVerifyGetKey | NonNullable<JwtValidationOptions['key']> {
  const sources = [jwt.jwksUri, jwt.jwks, jwt.key].filter((source) => source !== undefined).length;
  if (sources !== 1) fail("jwt needs exactly one of jwksUri (the authorization server's JWKS URL), jwks (a local key set) or key");
  if (jwt.jwksUri !== undefined) {
    let url: URL;
    try {
      url = new URL(jwt.jwksUri);
    } catch {
      fail(`jwt.jwksUri ${JSON.stringify(String(jwt.jwksUri))} is not an absolute URL`);
    }
    return createRemoteJWKSet(url);
  }
  if (jwt.jwks !== undefined) {
    if (!Array.isArray(jwt.jwks.keys)) fail('jwt.jwks must be a JSON Web Key Set ({ keys: [...] })');
    return createLocalJWKSet(jwt.jwks);
  }
  return jwt.key!;
}

function jwtVerifier(jwt: JwtValidationOptions, authorizationServers: readonly string[], resource: ResourceUri, requireSubject: boolean): TokenVerifier {
  const algorithms = [...(jwt.algorithms ?? DEFAULT_ALGORITHMS)];
  if (algorithms.length === 0) fail('jwt.algorithms must not be empty');
  if (algorithms.some((alg) => typeof alg !== 'string' || alg.toLowerCase() === 'none'))
    fail('jwt.algorithms must name signature algorithms; "none" is never accepted');
  const clockTolerance = jwt.clockToleranceSec ?? DEFAULT_CLOCK_TOLERANCE_SEC;
  if (!Number.isFinite(clockTolerance) || clockTolerance < 0) fail(`jwt.clockToleranceSec must be a number ≥ 0 (got ${clockTolerance})`);
  const issuers = jwt.issuer === undefined ? [...authorizationServers] : typeof jwt.issuer === 'string' ? [jwt.issuer] : [...jwt.issuer];
  if (issuers.length === 0 || issuers.some((issuer) => typeof issuer !== 'string' || issuer === '')) fail('jwt.issuer must name the expected issuer(s)');
  const key = keyResolver(jwt);
  const verifyOptions = { algorithms, issuer: issuers, clockTolerance, requiredClaims: ['exp'], ...(jwt.typ !== undefined ? { typ: jwt.typ } : {}) };

  return async (token) => {
    let payload: JWTPayload;
    try {
      // The audience is checked below, in normal form, not by jose's exact match.
      ({ payload } = typeof key === 'function' ? await jwtVerify(token, key, verifyOptions) : await jwtVerify(token, key, verifyOptions));
    } catch (error) {
      const reason = tokenFault(error, issuers, algorithms);
      if (reason === undefined) throw error;
      return { rejected: reason };
    }
    if (!audienceNames(payload.aud, resource)) return { rejected: wrongAudience(resource) };
    if (requireSubject && !hasSubject(payload.sub)) return { rejected: NO_SUBJECT };
    const claims = Object.freeze({ ...payload }) as Readonly<Record<string, unknown>>;
    return { auth: Object.freeze({ principal: typeof payload.sub === 'string' ? payload.sub : undefined, scopes: scopesOfClaims(claims), claims }) };
  };
}

const when = (seconds: unknown): string => (typeof seconds === 'number' ? ` at ${new Date(seconds * 1000).toISOString()}` : '');

/**
 * Why jose refused the token, in words for `error_description`, or `undefined` when the failure is
 * not the token's (the key set could not be fetched or is broken): that is ours, answered 500.
 */
function tokenFault(error: unknown, issuers: readonly string[], algorithms: readonly string[]): string | undefined {
  if (error instanceof errors.JWTExpired) return `the access token expired${when(error.payload.exp)}; get a new one`;
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'nbf':
        return `the access token is not valid yet (nbf${when(error.payload.nbf)})`;
      case 'iss':
        return `the access token was not issued by a trusted authorization server (expected iss ${issuers.join(' or ')})`;
      case 'exp':
        return 'the access token has no valid expiry (exp); it is refused';
      case 'typ':
        return 'the access token has the wrong type (typ header)';
      default:
        return `the access token's ${error.claim} claim is invalid`;
    }
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return `the access token's signature algorithm is not accepted (accepted: ${algorithms.join(', ')})`;
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the access token's signature does not verify against the authorization server's keys";
  if (error instanceof errors.JWKSNoMatchingKey)
    return 'no key of the authorization server matches the access token (kid/alg); it was not signed by a trusted issuer';
  if (error instanceof errors.JWKSMultipleMatchingKeys) return 'the access token does not say which key signed it (kid), and several keys match';
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid || error instanceof errors.JOSENotSupported) {
    return 'the access token is not a well-formed signed JWT';
  }
  return undefined;
}

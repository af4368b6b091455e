import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import Fastify from 'fastify';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

/** A free port on 127.0.0.1 (for a resource server whose canonical URI must name its port). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface AuthorizationServerOptions {
  /** What to put in the `iss` parameter of the redirect: the issuer (default), another one, or nothing. */
  readonly issInRedirect?: 'issuer' | 'other' | 'none';
  /** The `issuer` its metadata names: its own URL (default), or another server's (an impostor). */
  readonly metadataIssuer?: 'self' | 'other';
}

/** What a code or a refresh token was granted for. */
interface Grant {
  readonly clientId: string;
  readonly resource: string;
  readonly scope?: string;
}

interface IssuedCode extends Grant {
  readonly redirectUri: string;
  readonly challenge: string;
  used: boolean;
}

/**
 * A small OAuth 2.1 authorization server on 127.0.0.1: RFC 8414 metadata, an authorization
 * endpoint that approves at once (redirecting with code, state and `iss`), a token endpoint that
 * checks PKCE, redirect URI and `resource`, refuses a code used before, and refreshes (rotating
 * the refresh token, for the client and resource of its grant only), dynamic registration, and
 * JWT access tokens (ES256, `aud` = the resource) whose keys it publishes. It records every
 * authorization and token request, and every registration.
 */
export async function startAuthorizationServer(options: AuthorizationServerOptions = {}) {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  const codes = new Map<string, IssuedCode>();
  const refreshTokens = new Map<string, Grant>();
  const authorizeRequests: Record<string, string>[] = [];
  const tokenRequests: Record<string, string>[] = [];
  const registrations: string[] = [];
  const app = Fastify({ logger: false, forceCloseConnections: true });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  let issuer = ''; // known once listening; the routes read it per request

  /** A signed access token for `grant`, valid for `expiresInSeconds` (negative: already expired). */
  const accessToken = (grant: Grant, expiresInSeconds = 300) =>
    new SignJWT({ scope: grant.scope ?? '', client_id: grant.clientId })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(issuer)
      .setAudience(grant.resource)
      .setSubject('user-1')
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
      .sign(privateKey);

  /** The token response for `grant`, with a new refresh token (the one it replaces is forgotten by the caller). */
  const tokens = async (grant: Grant) => {
    const refreshToken = `refresh-${randomUUID()}`;
    refreshTokens.set(refreshToken, grant);
    return {
      access_token: await accessToken(grant),
      token_type: 'Bearer',
      expires_in: 300,
      refresh_token: refreshToken,
      ...(grant.scope && { scope: grant.scope }),
    };
  };

  app.get('/.well-known/oauth-authorization-server', async () => ({
    issuer: options.metadataIssuer === 'other' ? 'http://127.0.0.1:1/impostor' : issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    registration_endpoint: `${issuer}/register`,
    jwks_uri: `${issuer}/jwks`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
  }));
  app.get('/jwks', async () => ({ keys: [jwk] }));
  app.post('/register', async (request, reply) => {
    const clientId = `client-${randomUUID()}`;
    registrations.push(clientId);
    return reply.code(201).send({ client_id: clientId, token_endpoint_auth_method: 'none', ...(request.body as object) });
  });
  app.get('/authorize', async (request, reply) => {
    const q = request.query as Record<string, string>;
    authorizeRequests.push(q);
    const code = randomUUID();
    codes.set(code, { clientId: q.client_id, redirectUri: q.redirect_uri, challenge: q.code_challenge, resource: q.resource, scope: q.scope, used: false });
    const target = new URL(q.redirect_uri);
    target.searchParams.set('code', code);
    if (q.state) target.searchParams.set('state', q.state);
    const iss = options.issInRedirect ?? 'issuer';
    if (iss !== 'none') target.searchParams.set('iss', iss === 'issuer' ? issuer : 'http://127.0.0.1:1/another-issuer');
    return reply.redirect(target.href, 302);
  });
  app.post('/token', async (request, reply) => {
    const body = request.body as Record<string, string>;
    tokenRequests.push(body);
    const refuse = (description: string) => reply.code(400).send({ error: 'invalid_grant', error_description: description });
    if (body.grant_type === 'refresh_token') {
      const grant = refreshTokens.get(body.refresh_token);
      if (!grant) return refuse('unknown or revoked refresh token');
      if (body.client_id !== grant.clientId) return refuse('the refresh token was issued to another client');
      // RFC 8707: the refresh names the resource again; this server refuses any other (or none).
      if (body.resource !== grant.resource) return refuse('resource does not match the grant of the refresh token');
      refreshTokens.delete(body.refresh_token);
      return tokens(grant);
    }
    const issued = codes.get(body.code);
    if (body.grant_type !== 'authorization_code' || !issued) return refuse('unknown authorization code');
    if (issued.used) return refuse('authorization code already used');
    issued.used = true;
    if (
      createHash('sha256')
        .update(body.code_verifier ?? '')
        .digest('base64url') !== issued.challenge
    )
      return refuse('PKCE verification failed');
    if (body.redirect_uri !== issued.redirectUri || body.client_id !== issued.clientId)
      return refuse('redirect_uri or client_id does not match the authorization request');
    if (body.resource !== issued.resource) return refuse('resource does not match the authorization request');
    return tokens(issued);
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  issuer = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  return {
    issuer,
    jwks: { keys: [jwk] },
    codes,
    authorizeRequests,
    tokenRequests,
    registrations,
    /** An access token as the token endpoint would issue it, e.g. one that has already expired. */
    accessToken: (resource: string, clientId: string, expiresInSeconds?: number) => accessToken({ resource, clientId }, expiresInSeconds),
    /** Revokes every refresh token issued so far: the next refresh is refused with invalid_grant. */
    revokeRefreshTokens: () => refreshTokens.clear(),
    close: () => app.close(),
  };
}

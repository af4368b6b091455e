import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JSONWebKeySet, type JWK, type JWTPayload } from 'jose';

/** A signing key with its public JWK (kid and alg set). */
export interface SigningKey {
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
  readonly kid: string;
  readonly alg: string;
}

export async function signingKey(kid: string, alg = 'RS256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' }, kid, alg };
}

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A local authorization server for tests: real keys made with jose, a JWKS served on 127.0.0.1
 * (`jwksUri`, with a hit counter) and a token minter with sensible defaults.
 */
export class AuthServerFixture {
  jwksHits = 0;
  private constructor(
    readonly issuer: string,
    readonly audience: string,
    readonly key: SigningKey,
    readonly jwksUri: string,
    private readonly server: Server,
  ) {}

  static async start(audience: string, issuer = 'https://auth.example.test'): Promise<AuthServerFixture> {
    const key = await signingKey('test-key-1');
    const server = createServer((req, res) => {
      if (req.url === '/jwks') {
        fixture.jwksHits++;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(fixture.jwks));
      } else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    // Declared after the server whose handler reads it: no request arrives before it is set.
    const fixture = new AuthServerFixture(issuer, audience, key, `http://127.0.0.1:${port}/jwks`, server);
    return fixture;
  }

  get jwks(): JSONWebKeySet {
    return { keys: [this.key.publicJwk] };
  }

  /** A signed access token: `sub` alice, this issuer and audience, valid for 5 minutes, unless overridden. */
  async token(claims: JWTPayload = {}, options: { key?: SigningKey; kid?: string | null; now?: number } = {}): Promise<string> {
    const key = options.key ?? this.key;
    const now = options.now ?? Math.floor(Date.now() / 1000);
    const payload: JWTPayload = { iss: this.issuer, aud: this.audience, sub: 'alice', iat: now, exp: now + 300, ...claims };
    for (const [name, value] of Object.entries(payload)) if (value === undefined) delete payload[name];
    const kid = options.kid === undefined ? key.kid : options.kid;
    return new SignJWT(payload).setProtectedHeader({ alg: key.alg, typ: 'at+jwt', ...(kid === null ? {} : { kid }) }).sign(key.privateKey);
  }

  /** An unsecured JWT (`alg: none`), crafted by hand as an attacker would. */
  unsignedToken(claims: JWTPayload = {}): string {
    const now = Math.floor(Date.now() / 1000);
    return `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ iss: this.issuer, aud: this.audience, sub: 'mallory', exp: now + 300, scope: 'mcp:use notes:read notes:write', ...claims })}.`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Serves the secure-notes example over Streamable HTTP as an OAuth 2.1 protected resource.
 *
 * As a program it reads its settings from the environment — for a real authorization server:
 *
 *   MCP_AUTH_ISSUER=https://auth.example.com MCP_JWKS_URI=https://auth.example.com/.well-known/jwks.json \
 *   MCP_RESOURCE=https://notes.example.com/mcp node examples/secure-notes/dist/serve.js
 *
 * For local tries, `scripts/dev-token.mjs` runs a throwaway key server and calls {@link serveSecureNotes}.
 */
import { serveHttp, type HttpServer } from '@decorum/fastify';
import { pathToFileURL } from 'node:url';
import { SecureNotesServer } from './notes.js';

export interface SecureNotesConfig {
  /** The authorization server's issuer identifier (`iss` of its tokens). */
  readonly issuer: string;
  /** Where it publishes its signing keys. */
  readonly jwksUri: string;
  /** Interface and port to bind (default 127.0.0.1:3000). */
  readonly host?: string;
  readonly port?: number;
  /** This server's canonical URI, the tokens' audience (default `http://<host>:<port>/mcp`). */
  readonly resource?: string;
}

export function serveSecureNotes(config: SecureNotesConfig): Promise<HttpServer> {
  const host = config.host ?? '127.0.0.1';
  const port = config.port ?? 3000;
  return serveHttp([SecureNotesServer], {
    host,
    port,
    auth: {
      resource: config.resource ?? `http://${host}:${port}/mcp`,
      authorizationServers: [config.issuer],
      resourceName: 'Secure notes (Decorum example)',
      jwt: { jwksUri: config.jwksUri },
    },
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { MCP_AUTH_ISSUER: issuer, MCP_JWKS_URI: jwksUri, MCP_RESOURCE: resource, HOST: host, PORT: port } = process.env;
  if (!issuer || !jwksUri) {
    process.stderr.write('secure-notes: set MCP_AUTH_ISSUER and MCP_JWKS_URI (and MCP_RESOURCE behind a proxy), or run scripts/dev-token.mjs for a local try\n');
    process.exit(2);
  }
  const server = await serveSecureNotes({ issuer, jwksUri, resource, host, port: port === undefined ? undefined : Number(port) });
  process.stderr.write(`secure-notes: protected MCP endpoint at ${server.url}\n`);
}

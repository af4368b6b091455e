#!/usr/bin/env node
// A local try of secure-notes, with no real authorization server:
//  1. makes a throwaway RS256 key pair with jose,
//  2. serves its public half as a JWKS on 127.0.0.1 (a stand-in "authorization server"),
//  3. prints access tokens signed with it (alice may read and write, bob may only read),
//  4. starts the secure-notes MCP server configured to trust that key.
// Needs a build first (`npm run build` at the repository root). Options: --port <mcp port> (default 3000),
// --ttl <token lifetime in seconds> (default 3600). Ctrl-C stops both servers.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

const { values } = parseArgs({ options: { port: { type: 'string', default: '3000' }, ttl: { type: 'string', default: '3600' } } });
const port = Number(values.port);
const ttl = Number(values.ttl);

let serveSecureNotes;
try {
  ({ serveSecureNotes } = await import('../dist/serve.js'));
} catch (error) {
  process.stderr.write(`dev-token: could not load examples/secure-notes/dist/serve.js (${error.message}); run \`npm run build\` at the repository root first\n`);
  process.exit(1);
}

// 1–2. The key pair and the stand-in authorization server (JWKS and RFC 8414 metadata only; it issues no tokens over HTTP).
const { privateKey, publicKey } = await generateKeyPair('RS256');
const kid = `dev-${Date.now().toString(36)}`;
const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }] });
const keyServer = createServer((req, res) => {
  if (req.url === '/jwks.json') return res.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
  if (req.url === '/.well-known/oauth-authorization-server') {
    return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks.json`, scopes_supported: ['notes:read', 'notes:write'] }));
  }
  res.writeHead(404).end();
});
await new Promise((resolve) => keyServer.listen(0, '127.0.0.1', resolve));
// Declared after the key server whose handler reads it: no request arrives before it is set.
const issuer = `http://127.0.0.1:${keyServer.address().port}`;

// 4. The MCP server, trusting that issuer and key set.
const resource = `http://127.0.0.1:${port}/mcp`;
const server = await serveSecureNotes({ issuer, jwksUri: `${issuer}/jwks.json`, port, resource });
server.closed.then(() => keyServer.close());

// 3. Tokens, audience-bound to this resource (RFC 8707).
const mint = (sub, scope) =>
  new SignJWT({ scope })
    .setProtectedHeader({ alg: 'RS256', kid, typ: 'at+jwt' })
    .setIssuer(issuer)
    .setAudience(resource)
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime(`${ttl}s`)
    .sign(privateKey);
const alice = await mint('alice', 'notes:read notes:write');
const bob = await mint('bob', 'notes:read');

process.stdout.write(`secure-notes: protected MCP endpoint at ${server.url}
  metadata:      ${resource.replace('/mcp', '/.well-known/oauth-protected-resource/mcp')}
  issuer (JWKS): ${issuer}/jwks.json

ALICE_TOKEN=${alice}
BOB_TOKEN=${bob}

Tokens expire in ${ttl} s. Ctrl-C stops the server.
`);

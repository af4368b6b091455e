import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { serveSecureNotes } from '../src/serve.js';
import type { HttpServer } from '@decorum/fastify';

// What scripts/dev-token.mjs does, in-process: a key server on 127.0.0.1, tokens signed with its key.
let keyServer: Server;
let privateKey: CryptoKey;
let issuer: string;
let mcp: HttpServer;
const RESOURCE = 'http://127.0.0.1/notes/mcp';

beforeAll(async () => {
  process.env.DECORUM_LOG_LEVEL ??= 'silent'; // the server's JSON log lines would go to the test's stderr
  const pair = await generateKeyPair('RS256');
  privateKey = pair.privateKey;
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256' }] });
  keyServer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
  await new Promise<void>((resolve) => keyServer.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(keyServer.address() as { port: number }).port}`;
  mcp = await serveSecureNotes({ issuer, jwksUri: `${issuer}/jwks.json`, port: 0, resource: RESOURCE });
});
afterAll(async () => {
  await mcp.close();
  await new Promise((resolve) => keyServer.close(resolve));
});

const token = (sub: string, scope: string) =>
  new SignJWT({ scope }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setIssuer(issuer).setAudience(RESOURCE).setSubject(sub).setIssuedAt().setExpirationTime('5m').sign(privateKey);

async function call(bearer: string | undefined, name: string, args: Record<string, unknown> = {}) {
  const res = await fetch(mcp.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
  });
  const json = (await res.json()) as any;
  return { status: res.status, challenge: res.headers.get('www-authenticate'), text: json.result?.content?.[0]?.text as string | undefined };
}

test('the README walk-through: 401 without a token, alice writes, bob may only read, notebooks are per principal', async () => {
  const anonymous = await call(undefined, 'notes_list');
  expect(anonymous.status).toBe(401);
  expect(anonymous.challenge).toBe('Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/notes/mcp"');

  const alice = await token('alice', 'notes:read notes:write');
  const bob = await token('bob', 'notes:read');
  expect((await call(alice, 'whoami')).text).toBe('principal: alice; scopes: notes:read notes:write');
  expect((await call(alice, 'notes_add', { text: 'buy milk' })).text).toBe('Added note 1.');
  expect((await call(alice, 'notes_list')).text).toBe('1. buy milk');

  const denied = await call(bob, 'notes_add', { text: 'hi' });
  expect(denied.status).toBe(403);
  expect(denied.challenge).toContain('error="insufficient_scope", scope="notes:write"');
  expect((await call(bob, 'notes_list')).text).toBe('No notes yet.');
});

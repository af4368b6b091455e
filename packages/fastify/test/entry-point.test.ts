import * as fastify from '@decorum/fastify';

/** The index exports what users call; internals that only tests use are imported from src/ there. */
describe('the entry point of @decorum/fastify', () => {
  test('internals stay out of it', () => {
    const internals = ['errorStatus', 'refusalStatus', 'HttpRefusal', 'decodeHeaderValue', 'isBase64Sentinel', 'hostPolicy'];
    // Shared with the client, so in @decorum/core/transport.
    internals.push('readMcpParamHeaders', 'X_MCP_HEADER');
    // What mcpPlugin's auth and timeouts use inside; a user sets the options.
    internals.push(
      'McpResourceServer',
      'bearerChallenge',
      'metadataUrl',
      'parseResourceUri',
      'scopesOfClaims',
      'PRM_WELL_KNOWN',
      'DEFAULT_ALGORITHMS',
      'DEFAULT_REQUEST_TIMEOUT_MS',
    );
    expect(internals.filter((name) => name in fastify)).toEqual([]);
  });

  test('what users call is in it', () => {
    for (const name of ['mcpPlugin', 'serveHttp', 'createMcpApp', 'createHttpLogger', 'timeoutOptions', 'isLocalOrigin']) expect(fastify).toHaveProperty(name);
  });
});

import { createServer, DecorumStartupError, encodeMessage, errorResponse, StartupErrorCode, type DecorumServer, type PreparedRequest } from '@decorum/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { McpResourceServer } from './auth/resource-server.js';
import { McpEndpoint, sendRefusal, type Exchange } from './endpoint.js';
import { McpParamHeaders } from './mcp-param-headers.js';
import { DEFAULT_BODY_LIMIT, DEFAULT_PATH, DEFAULT_SSE_KEEP_ALIVE_MS, type McpPluginOptions } from './options.js';
import { originPolicy } from './origin.js';
import { HttpRefusal } from './refusal.js';
import { logExchange, requestLoggerFactory, serverLogger } from './request-log.js';
import { errorStatus } from './status.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Decorum servers mounted by `mcpPlugin` in this context, by endpoint URL path. */
    readonly mcpServers: ReadonlyMap<string, DecorumServer>;
  }
}

const NOT_POST = ['GET', 'HEAD', 'DELETE', 'PUT', 'PATCH'] as const;

/** Fastify's own body-reading errors, answered as refusals with a JSON-RPC body. */
function refusalFor(error: FastifyError, bodyLimit: number): HttpRefusal | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpRefusal('body-too-large', `Payload Too Large: the body exceeds the ${bodyLimit}-byte limit`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpRefusal('unsupported-media-type', 'Unsupported Media Type: POST a JSON-RPC message as application/json');
    default:
      return error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500
        ? new HttpRefusal('unreadable-body', 'Bad Request: the request body could not be read')
        : undefined;
  }
}

/** Everything that can be worked out before the first request: server, header rules, policies. */
function prepare(app: FastifyInstance, options: McpPluginOptions) {
  const path = options.path ?? DEFAULT_PATH;
  if (!path.startsWith('/')) throw new DecorumStartupError(StartupErrorCode.INVALID_DECLARATION, `mcpPlugin: path must start with "/" (got ${JSON.stringify(path)})`);
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  if (!Number.isInteger(bodyLimit) || bodyLimit < 1) throw new DecorumStartupError(StartupErrorCode.INVALID_DECLARATION, `mcpPlugin: bodyLimit must be a positive integer (got ${bodyLimit})`);
  const sseKeepAliveMs = options.sseKeepAliveMs ?? DEFAULT_SSE_KEEP_ALIVE_MS;
  if (!Number.isInteger(sseKeepAliveMs) || sseKeepAliveMs < 0) throw new DecorumStartupError(StartupErrorCode.INVALID_DECLARATION, `mcpPlugin: sseKeepAliveMs must be an integer ≥ 0 (got ${sseKeepAliveMs})`);
  // What is left once the transport's own options are taken out goes to createServer.
  const { servers, path: _path, prefix: _prefix, allowedOrigins, bodyLimit: _bodyLimit, sseKeepAliveMs: _keepAlive, logLevel: _logLevel, requestLogLevel: _requestLogLevel, auth: _auth, ...serverOptions } = options;
  const server = createServer(servers, { ...serverOptions, logger: serverOptions.logger ?? serverLogger(app.log) });
  const resourceServer = options.auth === undefined ? undefined : new McpResourceServer(options.auth, server.registry);
  const authorize = resourceServer && ((prepared: PreparedRequest, exchange: Exchange) => resourceServer.authorize(prepared, exchange.auth!));
  return {
    server,
    resourceServer,
    path,
    bodyLimit,
    allowsOrigin: originPolicy(allowedOrigins),
    endpoint: new McpEndpoint(server, new McpParamHeaders(server.registry), requestLoggerFactory(app.log), sseKeepAliveMs, authorize),
    requestLogLevel: options.requestLogLevel ?? 'info',
  };
}

async function mcpPluginImpl(app: FastifyInstance, options: McpPluginOptions): Promise<void> {
  const { server, resourceServer, path, bodyLimit, allowsOrigin, endpoint, requestLogLevel } = prepare(app, options);
  const exchanges = new WeakMap<FastifyRequest, Exchange>();
  let mountedAt = path;

  // The routes live in their own encapsulated context, so the JSON parser, hooks and error handler
  // below apply to the MCP endpoint only, never to the app's other routes.
  await app.register(
    async (scope) => {
      mountedAt = `${scope.prefix}${path}`;
      // Bodies stay text so that core's parser reports malformed JSON as -32700 itself.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => done(null, body));

      scope.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
        const refusal = refusalFor(error, bodyLimit);
        if (refusal) return sendRefusal(reply, refusal);
        request.log.error({ err: error }, 'MCP endpoint failed');
        return reply.code(errorStatus(-32603, 'request')).type('application/json; charset=utf-8').send(encodeMessage(errorResponse(undefined, error)));
      });

      // Pipeline step 1, for every method: the Origin check (DNS-rebinding defence), and the
      // bookkeeping that logs each exchange once and turns a vanished client into cancellation.
      scope.addHook('onRequest', async (request, reply) => {
        const exchange: Exchange = { startedAt: performance.now(), cancelled: false, controller: new AbortController(), accepted: { json: true, sse: true } };
        exchanges.set(request, exchange);
        reply.raw.once('close', () => {
          // 'close' without 'finish' means the connection went away before the response was complete.
          if (!reply.raw.writableFinished) {
            exchange.cancelled = true;
            exchange.controller.abort();
          }
          if (requestLogLevel !== false) logExchange(request, reply, exchange, requestLogLevel);
        });
        const origin = request.headers.origin;
        if (origin !== undefined && !allowsOrigin(origin)) {
          return sendRefusal(reply, new HttpRefusal('forbidden-origin', `Forbidden: Origin ${JSON.stringify(origin)} is not allowed`));
        }
        return undefined;
      });

      // Pipeline step 2: this revision has no GET stream and no session to DELETE.
      scope.route({
        method: [...NOT_POST],
        url: path,
        exposeHeadRoute: false,
        logLevel: options.logLevel,
        handler: async (_request, reply) =>
          sendRefusal(reply.header('allow', 'POST'), new HttpRefusal('method-not-allowed', 'Method Not Allowed: the MCP endpoint accepts POST only')),
      });

      scope.route({
        method: 'POST',
        url: path,
        bodyLimit,
        logLevel: options.logLevel,
        onRequest: async (request, reply) => {
          const exchange = exchanges.get(request)!;
          // Pipeline step 3 on a protected endpoint: the bearer token (401) and the server-wide
          // scopes (403), before the body is read; per-item scopes wait for routing (endpoint.ts).
          if (resourceServer) {
            const authentication = await resourceServer.authenticate(request);
            if (authentication.refusal) return sendRefusal(reply, authentication.refusal);
            exchange.auth = authentication.auth;
          }
          const refusal = endpoint.checkRequestLine(request, exchange);
          return refusal ? sendRefusal(reply, refusal) : undefined;
        },
        handler: async (request, reply) => endpoint.post(request, reply, exchanges.get(request)!),
      });
    },
    { prefix: options.prefix },
  );
  // RFC 9728 metadata, unauthenticated, at the host's well-known URIs (outside the endpoint's context).
  resourceServer?.registerMetadataRoutes(app, mountedAt);

  // The one decoration that escapes encapsulation (hence fastify-plugin): which server is where.
  let own = mountsByContext.get(app);
  if (!own) mountsByContext.set(app, (own = new Map()));
  own.set(mountedAt, server);
  // Graceful shutdown answers every open subscriptions/listen with its closing result (L-10).
  app.addHook('preClose', (done) => {
    server.closeSubscriptions();
    done();
  });
  if (!app.hasDecorator('mcpServers')) app.decorate('mcpServers', { getter: mountsVisibleFrom });
}

// Mounts per Fastify context. A child context is an object whose prototype is its parent's, so a
// context sees its own mounts and its ancestors', never a child's or a sibling's.
const mountsByContext = new WeakMap<object, Map<string, DecorumServer>>();

function mountsVisibleFrom(this: FastifyInstance): ReadonlyMap<string, DecorumServer> {
  const chain: Array<Map<string, DecorumServer>> = [];
  for (let context: object | null = this; context !== null; context = Object.getPrototypeOf(context) as object | null) {
    const own = mountsByContext.get(context);
    if (own) chain.unshift(own);
  }
  return new Map(chain.flatMap((own) => [...own]));
}

/**
 * Serves Decorum servers over MCP Streamable HTTP (revision 2026-07-28) at one endpoint path.
 * Register it once per endpoint; several registrations with different servers and paths may share
 * an app.
 *
 * ```ts
 * const app = Fastify({ logger: true });
 * await app.register(mcpPlugin, { servers: [WeatherServer], path: '/mcp' });
 * await app.listen({ host: '127.0.0.1', port: 3000 });
 * ```
 *
 * Start-up errors (`DecorumStartupError`) — a duplicate tool name, an invalid `x-mcp-header` —
 * reject `register` / `ready`.
 */
export const mcpPlugin = fp(mcpPluginImpl, { fastify: '5.x', name: '@decorum/fastify' });

import type { DecorumServer } from '@decorum/core';
import { Cancellation, errorResponse, preloadValidators } from '@decorum/core/transport';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sendJson, sendRefusal } from './answer-writer.js';
import { bodyRefusal } from './body-refusal.js';
import { utf8Body } from './body-text.js';
import type { Exchange } from './exchange.js';
import { attachExchange, exchangeOf, followClose, onResponseClose } from './exchange.js';
import { mountsVisibleFrom, recordMount } from './mounts.js';
import type { McpPluginOptions } from './options.js';
import { isSmallBody, PostBatches } from './post-batches.js';
import { prepareMount } from './prepare-mount.js';
import { HttpRefusal } from './refusal.js';
import { logExchange } from './request-log.js';
import { trackEndpoint } from './running-requests.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Decorum servers mounted by `mcpPlugin` in this context, by endpoint URL path. */
    readonly mcpServers: ReadonlyMap<string, DecorumServer>;
  }
}

const NOT_POST = ['GET', 'HEAD', 'DELETE', 'PUT', 'PATCH'] as const;
const BOTH_ACCEPTED = Object.freeze({ json: true, sse: true });

async function mcpPluginImpl(app: FastifyInstance, options: McpPluginOptions): Promise<void> {
  const { server, resourceServer, path, bodyLimit, allowsOrigin, cors, checkHost, endpoint, requestLogLevel, legacy } = prepareMount(app, options);
  // An HTTP server starts once and serves long: its first call should not wait for TypeBox's compiler.
  // The process itself is tuned by the runner that owns it (serveHttp), never inside a user's app.
  await preloadValidators();
  let mountedAt = path;

  // The routes live in their own encapsulated context, so the JSON parser, hooks and error handler
  // below apply to the MCP endpoint only, never to the app's other routes.
  await app.register(
    async (scope) => {
      mountedAt = `${scope.prefix}${path}`;
      // Bodies stay text so that core's parser reports malformed JSON as -32700 itself (body-text.ts).
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, utf8Body);

      scope.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
        const refusal = bodyRefusal(error, bodyLimit);
        if (refusal) return sendRefusal(reply, refusal);
        request.log.error({ err: error }, 'MCP endpoint failed');
        return sendJson(reply, server.engine.modern.errorStatus(-32603, 'request'), errorResponse(undefined, error));
      });

      // The exchange's one summary line, when request logging is on.
      const logOnClose =
        requestLogLevel === false ? undefined : (exchange: Exchange) => logExchange(exchange.request!, exchange.reply!, exchange, requestLogLevel);

      // On an open endpoint a POST's media type and Accept are checked in the same hook, right
      // after step 1 (one hook a request, not two); a protected one checks them after the token.
      const checksRequestLine = resourceServer === undefined;

      // Pipeline step 1, for every method: the Origin check (DNS-rebinding defence), and the
      // bookkeeping that logs each exchange once and turns a vanished client into cancellation.
      // Callback-style hooks: no promise per request. The headers are read once (each read is a
      // getter of Fastify's and one of Node's).
      scope.addHook('onRequest', (request, reply, done) => {
        const exchange: Exchange = {
          startedAt: logOnClose ? performance.now() : 0,
          cancelled: false,
          cancellation: new Cancellation(),
          accepted: BOTH_ACCEPTED,
          onClose: logOnClose,
          request: logOnClose && request,
          reply: logOnClose && reply,
        };
        const res = attachExchange(reply, exchange);
        // The log line needs every close; a POST's cancellation only the close of one that waits (followClose).
        if (logOnClose || request.method !== 'POST') res.on('close', onResponseClose);
        const headers = request.headers;
        const origin = headers.origin;
        if (origin !== undefined) {
          if (!allowsOrigin(origin)) {
            sendRefusal(reply, new HttpRefusal('forbidden-origin', `Forbidden: Origin ${JSON.stringify(origin)} is not allowed; add it to allowedOrigins`));
            return;
          }
          // Before any refusal below, so that the page can read a 401's challenge or a 406 too.
          cors?.allow(reply, origin);
        }
        const refusal =
          checkHost(request, headers.host) ?? (checksRequestLine && request.method === 'POST' ? endpoint.checkRequestLine(headers, exchange) : undefined);
        if (refusal) {
          sendRefusal(reply, refusal);
          return;
        }
        done();
      });

      // Pipeline step 2: 2026-07-28 has no GET stream and no session to DELETE; legacy sessions do.
      const authenticateOnly = resourceServer
        ? async (request: FastifyRequest, reply: FastifyReply) => {
            // The wrong method is 405 before any token is looked at, as for POST.
            if ((request.method !== 'GET' && request.method !== 'DELETE') || !legacy!.claimsMethod(request.headers)) return;
            const authentication = await resourceServer.authenticate(request);
            if (authentication.refusal) return sendRefusal(reply, authentication.refusal);
            exchangeOf(reply).auth = authentication.auth;
          }
        : undefined;
      scope.route({
        method: [...NOT_POST],
        url: path,
        exposeHeadRoute: false,
        logLevel: options.logLevel,
        onRequest: legacy && authenticateOnly,
        handler: async (request, reply) => {
          const sessionMethod = legacy !== undefined && (request.method === 'GET' || request.method === 'DELETE');
          if (sessionMethod && legacy.claimsMethod(request.headers)) {
            return request.method === 'GET' ? legacy.get(request, reply, exchangeOf(reply)) : legacy.delete(request, reply, exchangeOf(reply));
          }
          // A modern request's GET or DELETE gets the modern rule, even where legacy sessions have them.
          const allowed = legacy && !sessionMethod ? 'GET, POST, DELETE' : 'POST';
          const message = sessionMethod
            ? `Method Not Allowed: MCP-Protocol-Version ${String(request.headers['mcp-protocol-version'])} has no GET stream and no session to DELETE; POST its requests (GET and DELETE belong to 2025-11-25 sessions)`
            : `Method Not Allowed: the MCP endpoint accepts ${allowed} only`;
          return sendRefusal(reply.header('allow', allowed), new HttpRefusal('method-not-allowed', message));
        },
      });

      // Preflights carry no token and no MCP headers: only the Origin and Host checks come first.
      if (cors) scope.route({ method: 'OPTIONS', url: path, logLevel: options.logLevel, handler: (request, reply) => void cors.preflight(request, reply) });

      // Pipeline step 3 on a protected endpoint: the bearer token (401) and the server-wide
      // scopes (403), before the body is read; per-item scopes wait for routing (endpoint.ts).
      // Then media type and Accept (an open endpoint checked them in step 1's hook).
      const authenticatePost =
        resourceServer &&
        (async (request: FastifyRequest, reply: FastifyReply) => {
          const authentication = await resourceServer.authenticate(request);
          if (authentication.refusal) return sendRefusal(reply, authentication.refusal);
          const exchange = exchangeOf(reply);
          exchange.auth = authentication.auth;
          const refusal = endpoint.checkRequestLine(request.headers, exchange);
          return refusal && sendRefusal(reply, refusal);
        });

      const answerPost = (request: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<FastifyReply> => {
        const exchange = exchangeOf(reply);
        const headers = request.headers;
        const legacyMessage = legacy?.claim(request, headers);
        return legacyMessage === undefined ? endpoint.post(request, reply, exchange, headers) : legacy!.post(request, reply, exchange, legacyMessage);
      };
      // What Fastify does with a handler's error, for a request answered after its handler returned.
      const failPost = (reply: FastifyReply, error: unknown): void => {
        if (reply.sent) reply.log.error({ err: error }, 'MCP endpoint failed after answering');
        else reply.send(error);
      };
      // A POST that waits is followed to its close (cancellation), unless every close already is (the log line).
      const waits = logOnClose ? (): void => {} : followClose;
      // When busy, the POSTs of one event-loop turn are answered together (post-batches.ts).
      const batches = new PostBatches<FastifyReply>((reply) => {
        const answered = answerPost(reply.request, reply);
        if (answered instanceof Promise) answered.then(undefined, (error: unknown) => failPost(reply, error));
      }, failPost);

      scope.route({
        method: 'POST',
        url: path,
        bodyLimit,
        logLevel: options.logLevel,
        onRequest: authenticatePost,
        handler: (request, reply) => {
          if (isSmallBody(request.body) && batches.defer(reply)) {
            waits(reply);
            return undefined;
          }
          const answered = answerPost(request, reply);
          // A reply answered synchronously is already sent: returning it would make Fastify send it again (and warn).
          if (!(answered instanceof Promise)) return undefined;
          waits(reply);
          return answered;
        },
      });
    },
    { prefix: options.prefix },
  );
  // RFC 9728 metadata, unauthenticated, at the host's well-known URIs (outside the endpoint's context).
  resourceServer?.registerMetadataRoutes(app, mountedAt);

  // serveHttp answers what still runs at the end of shutdown (running-requests.ts), in both eras.
  trackEndpoint(app.server, endpoint);
  if (legacy) trackEndpoint(app.server, legacy);
  // The one decoration that escapes encapsulation (hence fastify-plugin): which server is where.
  recordMount(app, mountedAt, server);
  // Graceful shutdown answers every open subscriptions/listen with its closing result (L-10), and
  // ends the legacy sessions' standalone GET streams; requests still running keep their grace
  // period, and the sessions end once the server has closed.
  let extensionsClosed: Promise<void> | undefined;
  app.addHook('preClose', (done) => {
    extensionsClosed = server.closeSubscriptions();
    legacy?.store.closeStandaloneStreams();
    done();
  });
  app.addHook('onClose', async () => {
    legacy?.store.closeAll();
    // app.close() resolves only once the extensions have closed (a task's end is recorded by then).
    await extensionsClosed;
  });
  if (!app.hasDecorator('mcpServers')) app.decorate('mcpServers', { getter: mountsVisibleFrom });
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

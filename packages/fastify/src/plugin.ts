import { createServer, DecorumStartupError, StartupErrorCode, type DecorumServer, type JsonRpcErrorObject } from '@decorum/core';
import { Cancellation, encodeMessage, errorResponse, expectSeveralInstances, preloadValidators, type PreparedRequest } from '@decorum/core/transport';
import { keepTickShape, raiseMallocTrimThreshold } from '@decorum/transport-kit';
import type { ServerResponse } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { McpResourceServer } from './auth/resource-server.js';
import { utf8Body } from './body-text.js';
import { McpEndpoint, sendRefusal, type Exchange } from './endpoint.js';
import { McpParamHeaders } from './mcp-param-headers.js';
import { isSmallBody, PostBatches } from './post-batches.js';
import { DEFAULT_BODY_LIMIT, DEFAULT_DIRECT_WRITE_BYTES, DEFAULT_PATH, DEFAULT_SSE_KEEP_ALIVE_MS, type McpPluginOptions } from './options.js';
import { hostPolicy } from './host-check.js';
import { trackEndpoint } from './running-requests.js';
import { originPolicy } from './origin.js';
import { CorsPolicy } from './cors.js';
import { HttpRefusal } from './refusal.js';
import { logExchange, requestLogger, serverLogger } from './request-log.js';
import { errorStatus } from './status.js';
import { LegacyEndpoint } from './legacy/legacy-endpoint.js';
import { legacySessionsOptions, SessionStore } from './legacy/session-store.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Decorum servers mounted by `mcpPlugin` in this context, by endpoint URL path. */
    readonly mcpServers: ReadonlyMap<string, DecorumServer>;
  }
}

const NOT_POST = ['GET', 'HEAD', 'DELETE', 'PUT', 'PATCH'] as const;
const BOTH_ACCEPTED = Object.freeze({ json: true, sse: true });

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
  if (!path.startsWith('/'))
    throw new DecorumStartupError(StartupErrorCode.INVALID_OPTION, `mcpPlugin: path must start with "/" (got ${JSON.stringify(path)})`);
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  if (!Number.isInteger(bodyLimit) || bodyLimit < 1)
    throw new DecorumStartupError(StartupErrorCode.INVALID_OPTION, `mcpPlugin: bodyLimit must be a positive integer (got ${bodyLimit})`);
  const sseKeepAliveMs = options.sseKeepAliveMs ?? DEFAULT_SSE_KEEP_ALIVE_MS;
  if (!Number.isInteger(sseKeepAliveMs) || sseKeepAliveMs < 0)
    throw new DecorumStartupError(StartupErrorCode.INVALID_OPTION, `mcpPlugin: sseKeepAliveMs must be an integer ≥ 0 (got ${sseKeepAliveMs})`);
  const directWriteBytes = options.directWriteBytes ?? DEFAULT_DIRECT_WRITE_BYTES;
  if (!(Number.isInteger(directWriteBytes) || directWriteBytes === Infinity) || directWriteBytes < 0)
    throw new DecorumStartupError(StartupErrorCode.INVALID_OPTION, `mcpPlugin: directWriteBytes must be an integer ≥ 0 or Infinity (got ${directWriteBytes})`);
  // What is left once the transport's own options are taken out goes to createServer.
  const {
    servers,
    path: _path,
    prefix: _prefix,
    allowedOrigins,
    cors: _cors,
    allowedHosts,
    bodyLimit: _bodyLimit,
    sseKeepAliveMs: _keepAlive,
    directWriteBytes: _directWriteBytes,
    logLevel: _logLevel,
    requestLogLevel: _requestLogLevel,
    auth: _auth,
    legacySessions,
    ...serverOptions
  } = options;
  const server = createServer(servers, { ...serverOptions, logger: serverOptions.logger ?? serverLogger(app.log) });
  // HTTP servers are scaled out, so here (not on stdio) a per-process MRTR key is worth a warning.
  expectSeveralInstances(server);
  const resourceServer = options.auth === undefined ? undefined : new McpResourceServer(options.auth, server.registry);
  const authorize = resourceServer && ((prepared: PreparedRequest, exchange: Exchange) => resourceServer.authorize(prepared, exchange.auth!));
  let sessions;
  try {
    sessions = legacySessionsOptions(legacySessions);
  } catch (error) {
    throw new DecorumStartupError(StartupErrorCode.INVALID_OPTION, (error as Error).message);
  }
  // The legacy era (initialize-based sessions) shares the endpoint unless the server is modern-only.
  const challenge = resourceServer && ((error: JsonRpcErrorObject) => resourceServer.forbiddenChallenge(error));
  const legacy =
    server.eras === 'modern'
      ? undefined
      : new LegacyEndpoint(server, new SessionStore(sessions, sseKeepAliveMs), requestLogger, directWriteBytes, authorize, challenge);
  return {
    legacy,
    server,
    resourceServer,
    path,
    bodyLimit,
    allowsOrigin: originPolicy(allowedOrigins),
    cors: options.cors ? new CorsPolicy(options.cors === true ? {} : options.cors, legacy ? 'GET, POST, DELETE' : 'POST') : undefined,
    checkHost: hostPolicy(allowedHosts),
    endpoint: new McpEndpoint(server, new McpParamHeaders(server.registry), requestLogger, sseKeepAliveMs, directWriteBytes, authorize, challenge),
    requestLogLevel: options.requestLogLevel ?? 'info',
  };
}

/**
 * Where a request's {@link Exchange} lives: a property of Node's response, not a WeakMap entry per
 * request, and not a request decoration. Fastify gives a context that decorates its request a class
 * of its own, so every `mcpPlugin` on an app would add one, and the code all endpoints share (Fastify's
 * and ours) would see as many request shapes: a few per cent more instructions per request once an
 * app serves several endpoints (docs/perf-notes.md). Undecorated, every endpoint keeps the app's class.
 */
const EXCHANGE = 'mcpExchange';
type ResponseWithExchange = ServerResponse & { [EXCHANGE]: Exchange };

/** The exchange the endpoint's `onRequest` hook opened for this reply's request. */
function exchangeOf(reply: FastifyReply): Exchange {
  return (reply.raw as ResponseWithExchange)[EXCHANGE];
}

/**
 * Ends an exchange when its response closes. One shared listener (`this` is the response) rather
 * than a closure per request; 'close' without 'finish' means the client went away first.
 */
function onResponseClose(this: ResponseWithExchange): void {
  const exchange = this[EXCHANGE];
  if (!this.writableFinished) {
    exchange.cancelled = true;
    exchange.cancellation.cancel();
  }
  exchange.onClose?.(exchange);
}

/**
 * Follows the response's 'close' for its exchange from now on (at once should it have closed
 * already). A POST answered in the turn its body arrived in has nothing to cancel, so it is
 * followed only once its answer waits: deferred to a batch, or a promise. Node then finds no
 * listener to call when the response closes (docs/perf-notes.md, "One connection: a shorter path").
 */
function followClose(reply: FastifyReply): void {
  const res = reply.raw as ResponseWithExchange;
  if (res.closed) onResponseClose.call(res);
  else res.on('close', onResponseClose);
}

async function mcpPluginImpl(app: FastifyInstance, options: McpPluginOptions): Promise<void> {
  const { server, resourceServer, path, bodyLimit, allowsOrigin, cors, checkHost, endpoint, requestLogLevel, legacy } = prepare(app, options);
  // An HTTP server starts once and serves long: its first call should not wait for TypeBox's compiler,
  // Node's own per-tick objects should not turn slow after an idle moment (tick-shape.ts), and the
  // memory of dead buffers should not go back to the kernel after each collection (malloc-trim.ts).
  keepTickShape();
  raiseMallocTrimThreshold();
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
        const refusal = refusalFor(error, bodyLimit);
        if (refusal) return sendRefusal(reply, refusal);
        request.log.error({ err: error }, 'MCP endpoint failed');
        return reply
          .code(errorStatus(-32603, 'request'))
          .type('application/json; charset=utf-8')
          .send(encodeMessage(errorResponse(undefined, error)));
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
        const res = reply.raw as ResponseWithExchange;
        res[EXCHANGE] = exchange;
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
  let own = mountsByContext.get(app);
  if (!own) mountsByContext.set(app, (own = new Map()));
  own.set(mountedAt, server);
  // Graceful shutdown answers every open subscriptions/listen with its closing result (L-10), and
  // ends the legacy sessions' standalone GET streams; requests still running keep their grace
  // period, and the sessions end once the server has closed.
  app.addHook('preClose', (done) => {
    server.closeSubscriptions();
    legacy?.store.closeStandaloneStreams();
    done();
  });
  app.addHook('onClose', (_app, done) => {
    legacy?.store.closeAll();
    done();
  });
  if (!app.hasDecorator('mcpServers')) app.decorate('mcpServers', { getter: mountsVisibleFrom });
}

// Mounts per Fastify context. A child context is an object whose prototype is its parent's, so a
// context sees its own mounts and its ancestors', never a child's or a sibling's.
const mountsByContext = new WeakMap<object, Map<string, DecorumServer>>();

function mountsVisibleFrom(this: FastifyInstance): ReadonlyMap<string, DecorumServer> {
  const chain: Array<Map<string, DecorumServer>> = [];
  // A walk up the context's prototype chain, starting at the context itself (not a closure's alias).
  // eslint-disable-next-line @typescript-eslint/no-this-alias
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

import { createServer, DecorumStartupError, StartupErrorCode, type JsonRpcErrorObject, type PipelineCall } from '@decorum/core';
import { expectSeveralInstances } from '@decorum/core/transport';
import type { FastifyInstance } from 'fastify';
import { McpResourceServer } from './auth/resource-server.js';
import { McpEndpoint } from './endpoint.js';
import type { Exchange } from './exchange.js';
import { CorsPolicy } from './headers/cors.js';
import { hostPolicy } from './headers/host-check.js';
import { McpParamHeaders } from './headers/mcp-param-headers.js';
import { originPolicy } from './headers/origin.js';
import { LegacyEndpoint } from './legacy/legacy-endpoint.js';
import { legacySessionsOptions, SessionStore } from './legacy/session-store.js';
import { DEFAULT_BODY_LIMIT, DEFAULT_DIRECT_WRITE_BYTES, DEFAULT_PATH, DEFAULT_SSE_KEEP_ALIVE_MS, type McpPluginOptions } from './options.js';
import { requestLogger, serverLogger } from './request-log.js';

/** Everything that can be worked out before the first request: server, header rules, policies. */
export function prepareMount(app: FastifyInstance, options: McpPluginOptions) {
  const path = options.path ?? DEFAULT_PATH;
  if (!path.startsWith('/'))
    throw new DecorumStartupError(StartupErrorCode.INVALID_ADDRESS, `mcpPlugin: path must start with "/" (got ${JSON.stringify(path)})`);
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  if (!Number.isInteger(bodyLimit) || bodyLimit < 1)
    throw new DecorumStartupError(StartupErrorCode.INVALID_NUMBER, `mcpPlugin: bodyLimit must be a positive integer (got ${bodyLimit})`);
  const sseKeepAliveMs = options.sseKeepAliveMs ?? DEFAULT_SSE_KEEP_ALIVE_MS;
  if (!Number.isInteger(sseKeepAliveMs) || sseKeepAliveMs < 0)
    throw new DecorumStartupError(StartupErrorCode.INVALID_NUMBER, `mcpPlugin: sseKeepAliveMs must be an integer ≥ 0 (got ${sseKeepAliveMs})`);
  const directWriteBytes = options.directWriteBytes ?? DEFAULT_DIRECT_WRITE_BYTES;
  if (!(Number.isInteger(directWriteBytes) || directWriteBytes === Infinity) || directWriteBytes < 0)
    throw new DecorumStartupError(StartupErrorCode.INVALID_NUMBER, `mcpPlugin: directWriteBytes must be an integer ≥ 0 or Infinity (got ${directWriteBytes})`);
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
  const authorize = resourceServer && ((call: PipelineCall, exchange: Exchange) => resourceServer.authorize(call, exchange.auth!));
  let sessions;
  try {
    sessions = legacySessionsOptions(legacySessions);
  } catch (error) {
    throw new DecorumStartupError(StartupErrorCode.INVALID_NUMBER, (error as Error).message);
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

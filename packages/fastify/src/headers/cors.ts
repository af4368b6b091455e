import { DecorumStartupError, StartupErrorCode } from '@decorum/core';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The endpoint's own CORS answers, for the origins `allowedOrigins` lets in (the one list of
 * origins). `cors: true` takes every default.
 */
export interface McpCorsOptions {
  /** Seconds a browser may reuse a preflight's answer (`Access-Control-Max-Age`; default 600). */
  maxAge?: number;
  /**
   * Send `Access-Control-Allow-Credentials: true`, for pages that call with cookies or HTTP
   * authentication (default `false`; a bearer token in `Authorization` needs none).
   */
  credentials?: boolean;
  /** Request headers to allow besides the MCP ones (a tracing header, say). */
  allowedHeaders?: readonly string[];
  /** Response headers to expose to the page besides the MCP ones. */
  exposedHeaders?: readonly string[];
}

/**
 * Request headers MCP clients send, in both eras: 2026-07-28's standard headers (`Mcp-Method`,
 * `Mcp-Name`; `Mcp-Param-*` are allowed by name as a preflight asks for them), the bearer token,
 * and 2025-11-25's session and resumption headers. `Accept` is listed for its long values.
 */
export const CORS_ALLOWED_HEADERS: readonly string[] = Object.freeze([
  'Content-Type',
  'Accept',
  'Authorization',
  'MCP-Protocol-Version',
  'Mcp-Method',
  'Mcp-Name',
  'Mcp-Session-Id',
  'Last-Event-ID',
]);

/**
 * Response headers a browser client must read: the legacy session id, the OAuth challenge (where
 * the resource metadata is), and `Retry-After` of a 429 or 503. Others a page reads anyway.
 */
export const CORS_EXPOSED_HEADERS: readonly string[] = Object.freeze(['Mcp-Session-Id', 'WWW-Authenticate', 'Retry-After']);

const MCP_PARAM = /^mcp-param-[!#$%&'*+.^`|~\w-]+$/;

/** The CORS headers of the endpoint, worked out at registration. */
export class CorsPolicy {
  private readonly exposed: string;
  private readonly allowed: string;
  private readonly maxAge: string;
  private readonly credentials: boolean;

  constructor(
    options: McpCorsOptions,
    /** The endpoint's methods: `GET, POST, DELETE` with legacy sessions, else `POST`. */
    private readonly methods: string,
  ) {
    const maxAge = options.maxAge ?? 600;
    if (!Number.isInteger(maxAge) || maxAge < 0)
      throw new DecorumStartupError(StartupErrorCode.INVALID_NUMBER, `mcpPlugin: cors.maxAge must be an integer ≥ 0 (seconds; got ${maxAge})`);
    this.maxAge = String(maxAge);
    this.credentials = options.credentials === true;
    this.allowed = [...CORS_ALLOWED_HEADERS, ...(options.allowedHeaders ?? [])].join(', ');
    this.exposed = [...CORS_EXPOSED_HEADERS, ...(options.exposedHeaders ?? [])].join(', ');
  }

  /** Headers of an answer to an allowed origin (the Origin check has passed): the page may read it. */
  allow(reply: FastifyReply, origin: string): void {
    reply.header('access-control-allow-origin', origin).header('vary', 'Origin').header('access-control-expose-headers', this.exposed);
    if (this.credentials) reply.header('access-control-allow-credentials', 'true');
  }

  /**
   * Answers an `OPTIONS` request: a preflight (an allowed `Origin` and `Access-Control-Request-Method`)
   * gets the methods, the headers it may send — the MCP ones, yours, and each `Mcp-Param-*` it
   * asks for — and how long to keep them; any other `OPTIONS` gets `Allow`.
   */
  preflight(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    if (request.headers.origin === undefined || request.headers['access-control-request-method'] === undefined) {
      return reply.code(204).header('allow', `${this.methods}, OPTIONS`).send();
    }
    const asked = request.headers['access-control-request-headers'];
    const params = typeof asked === 'string' ? asked.split(',').filter((name) => MCP_PARAM.test(name.trim().toLowerCase())) : [];
    return reply
      .code(204)
      .header('vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers')
      .header('access-control-allow-methods', this.methods)
      .header('access-control-allow-headers', params.length === 0 ? this.allowed : `${this.allowed}, ${params.map((name) => name.trim()).join(', ')}`)
      .header('access-control-max-age', this.maxAge)
      .send();
  }
}

import { DecorumStartupError, StartupErrorCode, type AuthInfo, type JsonRpcErrorObject, type PipelineCall } from '@decorum/core';
import type { Registry } from '@decorum/core/transport';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { HttpRefusal } from '../refusal.js';
import { authRefusal, bearerChallenge } from './challenge.js';
import { metadataDocument, metadataUrl, parseResourceUri, PRM_WELL_KNOWN, type ResourceUri } from './metadata.js';
import type { McpAuthOptions } from './options.js';
import { createVerifier, type TokenVerifier } from './verifier.js';

/** `Authorization: Bearer <token68>` (RFC 6750 §2.1; the scheme is case-insensitive). */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** Either the verified caller or the refusal to send. */
export type Authentication = { readonly auth: AuthInfo; readonly refusal?: undefined } | { readonly refusal: HttpRefusal; readonly auth?: undefined };

/** What a scoped item carries (registry entries since core's `scopes` option). */
interface Scoped {
  readonly scopes?: readonly string[];
}

/**
 * The OAuth 2.1 protected-resource side of one MCP endpoint (spec §14): its metadata document,
 * bearer-token authentication before anything is parsed (pipeline step 3), and the scope check
 * once the request's target is known. Everything is prepared at registration.
 */
export class McpResourceServer {
  readonly resource: ResourceUri;
  /** The `resource_metadata` URL advertised in every challenge. */
  readonly metadataUrl: string;
  /** The RFC 9728 document, serialized. */
  readonly metadata: string;
  private readonly requiredScopes: readonly string[];
  private readonly verifyToken: TokenVerifier;
  private readonly authorizationServers: readonly string[];

  constructor(options: McpAuthOptions, registry: Registry) {
    if (options === null || typeof options !== 'object') throw new DecorumStartupError(StartupErrorCode.INVALID_AUTH, 'mcpPlugin: auth must be an object');
    this.resource = parseResourceUri(options.resource);
    this.metadataUrl = metadataUrl(this.resource);
    this.requiredScopes = Object.freeze([...new Set(options.requiredScopes ?? [])]);
    for (const scope of this.requiredScopes) {
      if (typeof scope !== 'string' || !SCOPE_TOKEN.test(scope)) {
        throw new DecorumStartupError(StartupErrorCode.INVALID_AUTH, `mcpPlugin auth: required scope ${JSON.stringify(scope)} is not a valid OAuth scope`);
      }
    }
    this.authorizationServers = options.authorizationServers;
    this.metadata = metadataDocument(this.resource, {
      authorizationServers: options.authorizationServers,
      scopesSupported: supportedScopes(this.requiredScopes, registry),
      resourceName: options.resourceName,
      resourceDocumentation: options.resourceDocumentation,
    });
    this.verifyToken = createVerifier(options, this.resource);
  }

  /**
   * Serves the metadata document, unauthenticated, at the root well-known URI and at the
   * path-inserted ones for the mount path and for the resource's own path (they differ behind a
   * proxy). Routes go on `app`, which must be a context without a prefix: well-known URIs live at
   * the host's root. The root form is served by the first protected mount that claims it.
   */
  registerMetadataRoutes(app: FastifyInstance, mountedAt: string): void {
    if (app.prefix !== '') {
      throw new DecorumStartupError(
        StartupErrorCode.INVALID_AUTH,
        `mcpPlugin auth: the plugin is registered inside the prefixed context ${JSON.stringify(app.prefix)}, so it cannot serve ${PRM_WELL_KNOWN} at the host's root; register it on the root app with the prefix option instead (app.register(mcpPlugin, { prefix: ${JSON.stringify(app.prefix)}, … }))`,
      );
    }
    const paths = new Set([PRM_WELL_KNOWN, `${PRM_WELL_KNOWN}${mountedAt}`, `${PRM_WELL_KNOWN}${this.resource.path}`]);
    for (const url of paths) {
      if (app.hasRoute({ method: 'GET', url })) continue;
      app.route({
        method: 'GET',
        url,
        handler: async (_request, reply) =>
          reply
            .header('access-control-allow-origin', '*') // public metadata, fetched by browser clients too
            .header('cache-control', 'public, max-age=300')
            .type('application/json; charset=utf-8')
            .send(this.metadata),
      });
    }
  }

  /**
   * Pipeline step 3, before the body is read: the bearer token (401) and the server-wide scopes
   * (403). A token in the query string is refused, never used. Throws only when the
   * failure is not the caller's (keys unreachable, a `verify` hook that threw).
   */
  async authenticate(request: FastifyRequest): Promise<Authentication> {
    const query = request.url.indexOf('?');
    if (query >= 0 && new URLSearchParams(request.url.slice(query + 1)).has('access_token')) {
      return this.unauthorized(
        'invalid_request',
        'access tokens are accepted only in the Authorization header, never in the query string',
        'Unauthorized: the access_token query parameter is refused (a token in a URL leaks into logs and histories); remove it and send the token as "Authorization: Bearer <token>"',
      );
    }
    const header = request.headers.authorization;
    if (header === undefined || header === '') {
      return this.unauthorized(
        undefined,
        undefined,
        `Unauthorized: this MCP endpoint requires an OAuth access token. Get one from ${this.authorizationServers.join(' or ')} for resource ${this.resource.configured} (metadata: ${this.metadataUrl}) and send it as "Authorization: Bearer <token>"`,
      );
    }
    const match = BEARER.exec(header);
    if (!match) {
      return this.unauthorized(
        'invalid_request',
        'use the Bearer scheme: Authorization: Bearer <token>',
        'Unauthorized: the Authorization header must be "Bearer <token>" with one OAuth access token',
      );
    }
    const outcome = await this.verifyToken(match[1]!);
    if ('rejected' in outcome) {
      return this.unauthorized(
        'invalid_token',
        outcome.rejected,
        `Unauthorized: ${outcome.rejected}. Get a new token from ${this.authorizationServers.join(' or ')} for resource ${this.resource.configured}`,
      );
    }
    const refusal = this.checkScopes(outcome.auth, this.requiredScopes, 'this MCP endpoint');
    return refusal ? { refusal } : { auth: outcome.auth };
  }

  /**
   * After routing: the scopes the operation needs — the server-wide ones plus those of the tool
   * (tools/call), prompt (prompts/get) or resource (resources/read) it targets.
   */
  authorize(call: PipelineCall, auth: AuthInfo): HttpRefusal | undefined {
    const own = targetScopes(call);
    if (own.length === 0) return undefined; // the server-wide ones were checked before parsing
    const needed = [...new Set([...this.requiredScopes, ...own])];
    return this.checkScopes(auth, needed, describeTarget(call));
  }

  /**
   * The challenge of a 403 a guard gave once the request ran (-31403): `insufficient_scope` with
   * every scope the operation needs (the server-wide ones and those the error names), as A-07 asks.
   */
  forbiddenChallenge(error: JsonRpcErrorObject): string {
    const named = (error.data as { requiredScopes?: unknown } | undefined)?.requiredScopes;
    const scopes = [
      ...new Set([...this.requiredScopes, ...(Array.isArray(named) ? named.filter((s): s is string => typeof s === 'string' && SCOPE_TOKEN.test(s)) : [])]),
    ];
    return bearerChallenge({ error: 'insufficient_scope', scopes, resourceMetadata: this.metadataUrl, description: error.message });
  }

  private checkScopes(auth: AuthInfo, needed: readonly string[], what: string): HttpRefusal | undefined {
    const granted = new Set(auth.scopes);
    const missing = needed.filter((scope) => !granted.has(scope));
    if (missing.length === 0) return undefined;
    const description = `${what} needs the scope${needed.length > 1 ? 's' : ''} ${needed.join(' ')}; the token lacks ${missing.join(' ')}`;
    return authRefusal(
      'insufficient-scope',
      `Forbidden: ${description}. Request a new token with scope="${needed.join(' ')}" (the token grants: ${auth.scopes.length > 0 ? auth.scopes.join(' ') : 'no scopes'})`,
      {
        error: 'insufficient_scope',
        scopes: needed,
        resourceMetadata: this.metadataUrl,
        description,
      },
    );
  }

  private unauthorized(error: 'invalid_request' | 'invalid_token' | undefined, description: string | undefined, message: string): Authentication {
    return {
      refusal: authRefusal('unauthorized', message, { error, scopes: this.requiredScopes, resourceMetadata: this.metadataUrl, description }),
    };
  }
}

/** Scopes the target of a routed request declares (none for lists and discovery). */
function targetScopes(call: PipelineCall): readonly string[] {
  return call.target?.entry.scopes ?? [];
}

function describeTarget(call: PipelineCall): string {
  const { method } = call;
  const params = call.params as { name?: unknown; uri?: unknown };
  const name = method === 'resources/read' ? params.uri : params.name;
  return typeof name === 'string' ? `${method} ${name}` : method;
}

/** `scopes_supported`: the server-wide scopes, then every decorator's, in registry order. */
function supportedScopes(required: readonly string[], registry: Registry): string[] {
  const all = new Set(required);
  const add = (item: Scoped): void => (item.scopes ?? []).forEach((scope) => all.add(scope));
  registry.tools.forEach(add);
  registry.prompts.forEach(add);
  registry.fixedResources.forEach(add);
  registry.templates.forEach(add);
  return [...all];
}

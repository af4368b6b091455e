import { DecorumStartupError, StartupErrorCode } from '@decorum/core';

/** The well-known suffix of RFC 9728. */
export const PRM_WELL_KNOWN = '/.well-known/oauth-protected-resource';

function fail(message: string): never {
  throw new DecorumStartupError(StartupErrorCode.INVALID_AUTH, `mcpPlugin auth: ${message}`);
}

/** A parsed canonical resource URI: absolute http(s), no fragment, no query. */
export interface ResourceUri {
  /** As configured: what the metadata advertises and clients compare with the URL they use. */
  readonly configured: string;
  /** For audience comparison: lowercase scheme and host, default port dropped, no trailing slash. */
  readonly normalized: string;
  /** Path of the resource (`/mcp`), `''` for the root. */
  readonly path: string;
  readonly origin: string;
}

/** Parses and checks the configured canonical resource URI; throws a start-up error that says what is wrong. */
export function parseResourceUri(resource: unknown): ResourceUri {
  if (typeof resource !== 'string' || resource === '') fail('resource must be the canonical URI of this MCP endpoint, e.g. "https://mcp.example.com/mcp"');
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    fail(`resource ${JSON.stringify(resource)} is not an absolute URI`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') fail(`resource ${JSON.stringify(resource)} must be an http(s) URI`);
  if (resource.includes('#')) fail(`resource ${JSON.stringify(resource)} must not have a fragment`);
  if (url.search !== '' || resource.includes('?')) fail(`resource ${JSON.stringify(resource)} must not have a query`);
  return { configured: resource, normalized: normalizeUri(url), path: trimSlash(url.pathname), origin: url.origin };
}

function trimSlash(path: string): string {
  return path.endsWith('/') ? path.slice(0, -1) : path;
}

function normalizeUri(url: URL): string {
  return `${url.protocol}//${url.host}${trimSlash(url.pathname)}`;
}

/** A token's audience value in the same normal form (`undefined` when it is no URI). */
export function normalizeAudience(value: string): string | undefined {
  try {
    return normalizeUri(new URL(value));
  } catch {
    return undefined;
  }
}

/** The path-inserted metadata URL of a resource (RFC 9728 §3.1): what `resource_metadata` names. */
export function metadataUrl(resource: ResourceUri): string {
  return `${resource.origin}${PRM_WELL_KNOWN}${resource.path}`;
}

export interface MetadataFields {
  readonly authorizationServers: readonly string[];
  readonly scopesSupported: readonly string[];
  readonly resourceName?: string;
  readonly resourceDocumentation?: string;
}

/** The RFC 9728 document, serialized once. */
export function metadataDocument(resource: ResourceUri, fields: MetadataFields): string {
  const servers = fields.authorizationServers;
  if (!Array.isArray(servers) || servers.length === 0) fail('authorizationServers must list at least one authorization server (its issuer URL)');
  for (const server of servers) {
    if (typeof server !== 'string' || !URL.canParse(server)) fail(`authorization server ${JSON.stringify(server)} is not an absolute URL`);
  }
  if (fields.resourceDocumentation !== undefined && !URL.canParse(fields.resourceDocumentation)) {
    fail(`resourceDocumentation ${JSON.stringify(fields.resourceDocumentation)} is not an absolute URL`);
  }
  return JSON.stringify({
    resource: resource.configured,
    authorization_servers: [...servers],
    // offline_access is the client's business with its authorization server, never a resource's.
    scopes_supported: fields.scopesSupported.filter((scope) => scope !== 'offline_access'),
    bearer_methods_supported: ['header'],
    ...(fields.resourceName !== undefined ? { resource_name: fields.resourceName } : {}),
    ...(fields.resourceDocumentation !== undefined ? { resource_documentation: fields.resourceDocumentation } : {}),
  });
}

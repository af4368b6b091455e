import { DecorumStartupError, StartupErrorCode } from '../errors/startup-error.js';
import { isJsonObject as isObject } from '../protocol/json-object.js';

/** The schema keyword that mirrors a tool argument into an `Mcp-Param-{Name}` header. */
export const X_MCP_HEADER = 'x-mcp-header';

/** One `x-mcp-header` annotation of a tool, resolved at registration. */
export interface McpParamHeader {
  /** The declared name, e.g. `Region`. */
  readonly name: string;
  /** `Mcp-Param-Region`, for messages. */
  readonly displayName: string;
  /** `mcp-param-region`: how Node presents the header. */
  readonly key: string;
  /** The chain of `properties` keys leading to the argument, e.g. `['region']`. */
  readonly path: readonly string[];
  readonly type: 'string' | 'integer' | 'boolean';
}

// RFC 9110 §5.6.2: token = 1*tchar. This excludes empty names, spaces, colons, control
// characters (CR, LF) and non-ASCII.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);

// JSON Schema 2020-12 keywords whose values are schemas (and 2019-09/draft-07 leftovers). Only these
// are walked: an "x-mcp-header" key inside `default`, `const` or `examples` is data, not an annotation.
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_SINGLE = [
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
];

type Schema = Record<string, unknown>;

function pointer(segments: readonly string[]): string {
  return segments.length === 0 ? '(the schema root)' : `/${segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

/** What {@link readMcpParamHeaders} reads of a tool: a served tool's registry entry, or a listed tool. */
export interface AnnotatedTool {
  readonly name: string;
  /** Where the tool comes from, for messages: `Class.method` on a server, `tools/list` on a client. */
  readonly source: string;
  readonly definition: { readonly inputSchema: unknown };
}

/**
 * Reads and checks every `x-mcp-header` annotation of a tool's `inputSchema` against the spec's
 * constraints (H-23), so that a tool clients would silently drop from their `tools/list` view
 * refuses to start instead. Runs once per tool: when the HTTP transport is registered, and when
 * a client reads a `tools/list` page (which drops such a tool).
 */
export function readMcpParamHeaders(tool: AnnotatedTool): McpParamHeader[] {
  const found: McpParamHeader[] = [];
  const seen = new Map<string, string>();
  const fail = (at: readonly string[], problem: string): never => {
    throw new DecorumStartupError(StartupErrorCode.INVALID_MCP_HEADER, `tool "${tool.name}" (${tool.source}): x-mcp-header at ${pointer(at)} ${problem}`);
  };

  const annotate = (schema: Schema, at: readonly string[], propertyPath: readonly string[] | null): void => {
    const name = schema[X_MCP_HEADER];
    if (propertyPath === null || propertyPath.length === 0) {
      fail(
        at,
        'is not on a property reachable from the root through "properties" alone (not through items, allOf/anyOf/oneOf/not, if/then/else, $ref or $defs)',
      );
    }
    if (typeof name !== 'string' || !TOKEN.test(name)) {
      fail(at, `must be a non-empty RFC 9110 token (letters, digits and !#$%&'*+-.^_\`|~), got ${JSON.stringify(name)}`);
    }
    const type = schema.type;
    if (typeof type !== 'string' || !HEADER_TYPES.has(type)) {
      fail(at, `may only annotate a property whose type is exactly "string", "integer" or "boolean" (got ${JSON.stringify(type ?? null)})`);
    }
    if (type === 'integer') {
      // Declared bounds may narrow the safe range, never widen it.
      const beyond = (v: unknown, limit: number) => typeof v === 'number' && Math.abs(v) > limit;
      const safe = Number.MAX_SAFE_INTEGER;
      if (
        beyond(schema.minimum, safe) ||
        beyond(schema.maximum, safe) ||
        beyond(schema.exclusiveMinimum, safe + 1) ||
        beyond(schema.exclusiveMaximum, safe + 1)
      ) {
        fail(at, 'annotates an integer whose declared bounds exceed ±(2^53−1), the range a header can carry exactly');
      }
    }
    const lower = (name as string).toLowerCase();
    const clash = seen.get(lower);
    if (clash !== undefined) fail(at, `repeats the name "${name}" (already used at ${clash}; names are compared case-insensitively)`);
    seen.set(lower, pointer(at));
    found.push({
      name: name as string,
      displayName: `Mcp-Param-${name as string}`,
      key: `mcp-param-${lower}`,
      path: propertyPath as string[],
      type: type as McpParamHeader['type'],
    });
  };

  // `propertyPath` is the chain of `properties` keys from the root, or null once the walk has
  // left that chain (an annotation found there is invalid).
  const walk = (schema: unknown, at: string[], propertyPath: string[] | null): void => {
    if (!isObject(schema)) return;
    if (Object.prototype.hasOwnProperty.call(schema, X_MCP_HEADER)) annotate(schema, at, propertyPath);
    for (const keyword of SCHEMA_MAPS) {
      const map = schema[keyword];
      if (!isObject(map)) continue;
      for (const [key, sub] of Object.entries(map)) {
        walk(sub, [...at, keyword, key], keyword === 'properties' && propertyPath !== null ? [...propertyPath, key] : null);
      }
    }
    for (const keyword of SCHEMA_LISTS) {
      const list = schema[keyword];
      if (Array.isArray(list)) list.forEach((sub, i) => walk(sub, [...at, keyword, String(i)], null));
    }
    for (const keyword of SCHEMA_SINGLE) {
      const sub = schema[keyword];
      if (Array.isArray(sub)) sub.forEach((s, i) => walk(s, [...at, keyword, String(i)], null));
      else walk(sub, [...at, keyword], null);
    }
  };

  walk(tool.definition.inputSchema, [], []);
  return found;
}

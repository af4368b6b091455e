/**
 * Stable codes of start-up errors: a server that would misbehave refuses to start instead,
 * with a message that says what to change. Codes are never reused.
 */
export const StartupErrorCode = {
  DUPLICATE_NAME: 'DECORUM_ERR_DUPLICATE_NAME',
  INVALID_NAME: 'DECORUM_ERR_INVALID_NAME',
  MISSING_METADATA: 'DECORUM_ERR_MISSING_METADATA',
  /** An `input:`/`output:` that is no schema Decorum takes, or an arguments schema whose root is not `type: "object"`. */
  UNSUPPORTED_INPUT: 'DECORUM_ERR_UNSUPPORTED_INPUT',
  /** A Standard Schema given as `input:`/`output:` that offers no JSON Schema (no Standard JSON Schema `~standard.jsonSchema`). */
  NO_JSON_SCHEMA: 'DECORUM_ERR_NO_JSON_SCHEMA',
  /** A decorator used wrongly (a non-method, a bad URI, a completer of nothing, …). */
  INVALID_DECLARATION: 'DECORUM_ERR_INVALID_DECLARATION',
  /** An option of createServer, a transport or a pipeline that is of the wrong kind, when no finer code below fits. */
  INVALID_OPTION: 'DECORUM_ERR_INVALID_OPTION',
  /** A numeric option that is not a whole number in its range (`pageSize`, `ttlMs`, `bodyLimit`, a timeout, a limit, …). */
  INVALID_NUMBER: 'DECORUM_ERR_INVALID_NUMBER',
  /** The `eras` option (or `DECORUM_ERAS`) names no era: it must be `dual`, `modern` or `legacy`. */
  INVALID_ERAS: 'DECORUM_ERR_INVALID_ERAS',
  /** The `resolve` or `container` option cannot build a server class, or built something else. */
  INVALID_RESOLVER: 'DECORUM_ERR_INVALID_RESOLVER',
  /** A `catalogue` entry that is not a decorated class, or two classes of one name. */
  INVALID_CATALOGUE: 'DECORUM_ERR_INVALID_CATALOGUE',
  /** An MRTR `requestState` key (`mrtr.keys`, `DECORUM_STATE_KEYS`) that is not 32 bytes. */
  INVALID_STATE_KEY: 'DECORUM_ERR_INVALID_STATE_KEY',
  /** The `auth` option of `mcpPlugin` (OAuth 2.1 resource server) is incomplete or inconsistent. */
  INVALID_AUTH: 'DECORUM_ERR_INVALID_AUTH',
  /** An `allowedOrigins` entry that is not an origin (scheme://host[:port]). */
  INVALID_ORIGIN: 'DECORUM_ERR_INVALID_ORIGIN',
  /** A path or URL option of the wrong form (`mcpPlugin`'s `path`, a Redis bus URL's scheme). */
  INVALID_ADDRESS: 'DECORUM_ERR_INVALID_ADDRESS',
  NO_SERVERS: 'DECORUM_ERR_NO_SERVERS',
  INVALID_MCP_HEADER: 'DECORUM_ERR_INVALID_MCP_HEADER',
  UNSAFE_PATTERN: 'DECORUM_ERR_UNSAFE_PATTERN',
  /** A DTO property without a class-validator decorator: left out of the schema, it would reach the handler unchecked. */
  UNVALIDATED_PROPERTY: 'DECORUM_ERR_UNVALIDATED_PROPERTY',
  /** A DTO evaluated before `reflect-metadata` was loaded, so its property types (`design:type`) were never recorded. */
  REFLECT_METADATA_LATE: 'DECORUM_ERR_REFLECT_METADATA_LATE',
  /** A DTO class that `new Dto()` cannot build: class-transformer makes one that way for every request. */
  DTO_NOT_CONSTRUCTIBLE: 'DECORUM_ERR_DTO_NOT_CONSTRUCTIBLE',
  /** A DTO with no property a class-validator decorator or `@Field` describes: its schema would be empty. */
  EMPTY_DTO: 'DECORUM_ERR_EMPTY_DTO',
  /** `@ValidateNested()` without class-transformer's `@Type(() => Dto)`: the nested value would stay a plain object, never validated. */
  UNTYPED_NESTED_DTO: 'DECORUM_ERR_UNTYPED_NESTED_DTO',
  /** A `@Field` default that `structuredClone` cannot copy: each request that needs it gets its own copy. */
  INVALID_FIELD_DEFAULT: 'DECORUM_ERR_INVALID_FIELD_DEFAULT',
  /** A resource template whose variables disagree with the handler's input (`input:` or DTO parameter). */
  TEMPLATE_VARIABLES: 'DECORUM_ERR_TEMPLATE_VARIABLES',
  /** An extension that is malformed: a bad id (or a reserved one outside the built-ins), a method, middleware or setting of the wrong kind. */
  INVALID_EXTENSION: 'DECORUM_ERR_INVALID_EXTENSION',
  /** Two extensions with one id in a server's `extensions`. */
  DUPLICATE_EXTENSION: 'DECORUM_ERR_DUPLICATE_EXTENSION',
  /** An extension method or notification whose name is a core method's, another extension's, or under a reserved prefix (`tasks/`). */
  EXTENSION_METHOD_CLASH: 'DECORUM_ERR_EXTENSION_METHOD_CLASH',
  /** A tool option (`@Tool({ task })`) that no installed extension checks, or that its extension's check refused. */
  INVALID_TOOL_OPTION: 'DECORUM_ERR_INVALID_TOOL_OPTION',
  /** An extension's `install` threw: the ones installed before it were closed, and the server did not start. */
  EXTENSION_INSTALL_FAILED: 'DECORUM_ERR_EXTENSION_INSTALL_FAILED',
} as const;

export type StartupErrorCode = (typeof StartupErrorCode)[keyof typeof StartupErrorCode];

/** Thrown while building a server from decorated classes; never sent to a client. */
export class DecorumStartupError extends Error {
  /** The message without its code. */
  readonly detail: string;

  constructor(
    readonly code: StartupErrorCode,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'DecorumStartupError';
    this.detail = message;
  }

  /** The same error with `where` (e.g. `input schema of Cls.method`) in front, so that a deep check can still name the item. */
  within(where: string): DecorumStartupError {
    return new DecorumStartupError(this.code, `${where}: ${this.detail}`);
  }
}

import 'reflect-metadata';
import type { CacheScope, Icon, Implementation, JsonObject, ToolAnnotations, Annotations } from '../protocol/types.js';

/**
 * Decorators only record; `registry/scanner.ts` turns the records into a registry.
 * Records live on the class (not a global list) so that two copies of a class never mix.
 */
export const SERVER_METADATA = Symbol.for('decorum:server');
export const MEMBER_METADATA = Symbol.for('decorum:members');
export const COMPLETE_METADATA = Symbol.for('decorum:completers');

/** A DTO class (class-validator decorated) used as an input or output schema. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type DtoClass = abstract new (...args: any[]) => object;

/**
 * A schema source: a class-validator DTO class, a TypeBox schema (or JSON Schema object literal),
 * or a Standard Schema with a JSON Schema (zod ≥ 4.2, ArkType, valibot via `toStandardJsonSchema`).
 */
export type SchemaSource = DtoClass | object;

/** Per-item cache hints; unset fields fall back to the server's defaults. */
export interface CacheOptions {
  ttlMs?: number;
  cacheScope?: CacheScope;
}

/** Options of `@McpServer`: its `serverInfo`, and guidance for the model. */
export interface McpServerOptions extends Implementation {
  /** Guidance for the model, returned by `server/discover`. */
  instructions?: string;
}

/**
 * Options of `@Tool`. `I` and `O` are the types of `input:` and `output:`, which `@Tool` infers to
 * hold the handler's parameter and return types to them (see `schema/schema-type.ts`).
 */
export interface ToolOptions<I extends SchemaSource | null = SchemaSource | null, O extends SchemaSource = SchemaSource> extends CacheOptions {
  /** Defaults to the method name. */
  name?: string;
  title?: string;
  description?: string;
  /**
   * The arguments' schema: a DTO class, a TypeBox schema or a Standard Schema (zod, valibot,
   * ArkType). Defaults to the design type of the first parameter; required where decorator
   * metadata is absent (esbuild, tsx). `null` declares a tool without arguments.
   */
  input?: I;
  /** The result's schema (same kinds as `input`): the return value becomes `structuredContent`, checked against it. */
  output?: O;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: JsonObject;
  /**
   * OAuth scopes a caller's token must carry to use this item over HTTP with auth enabled (on top
   * of the server-wide ones); exact string match. Ignored on stdio and on HTTP without auth.
   */
  scopes?: string[];
  /**
   * Whether a call may run as a task (the Tasks extension, `io.modelcontextprotocol/tasks`; legacy
   * core tasks on 2025-11-25 sessions): `'optional'` (the client chooses), `'required'`, or the
   * same with settings. Default: never a task.
   */
  task?: TaskOption;
}

/** A tool's task support: `'optional'` or `'required'`, or the same with its settings. */
export type TaskOption =
  | 'optional'
  | 'required'
  | {
      readonly support: 'optional' | 'required';
      /** How long the task and its result are kept from creation (default 1 h, capped by the server). */
      readonly ttlMs?: number;
      /** How often clients should poll (default 1,000 ms). */
      readonly pollIntervalMs?: number;
      /**
       * `'immediate'` (default): the task is created before the handler runs. `'handler'`: the
       * handler runs as a plain request (its asks are MRTR rounds) until it calls `startTask(ctx)`.
       */
      readonly start?: 'immediate' | 'handler';
      /**
       * When the instance running the task stops while it waits in `input_required`, the instance
       * that receives the `tasks/update` replays the handler from the top (stored answers answer the
       * asks already answered, `ctx.once` returns its journal). The handler must be deterministic up
       * to each ask, with its side effects in `ctx.once`. Default `false`: such a task fails.
       */
      readonly resumable?: boolean;
    };

/** Options shared by fixed resources and resource templates. */
interface ResourceCommonOptions extends CacheOptions {
  /** Defaults to the method name. */
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: JsonObject;
  /**
   * OAuth scopes a caller's token must carry to use this item over HTTP with auth enabled (on top
   * of the server-wide ones); exact string match. Ignored on stdio and on HTTP without auth.
   */
  scopes?: string[];
}

/**
 * Options of `@Resource`: exactly one of `uri` (fixed) or `uriTemplate` (RFC 6570). A template may
 * take `input:` (DTO class, TypeBox or Standard Schema) for its variables: each must be one of its
 * properties, each required property a variable (checked at start-up), and every read is validated.
 */
export type ResourceOptions =
  | (ResourceCommonOptions & { uri: string; uriTemplate?: never; size?: number; input?: never })
  | (ResourceCommonOptions & { uriTemplate: string; uri?: never; input?: SchemaSource });

/** Options of `@Prompt`; the cache hints are those of the `prompts/list` page that lists it. */
export interface PromptOptions extends CacheOptions {
  /** Defaults to the method name. */
  name?: string;
  title?: string;
  description?: string;
  /** The arguments' schema (DTO class or TypeBox object of strings); defaults to the first parameter's type. */
  input?: SchemaSource | null;
  icons?: Icon[];
  _meta?: JsonObject;
  /**
   * OAuth scopes a caller's token must carry to use this item over HTTP with auth enabled (on top
   * of the server-wide ones); exact string match. Ignored on stdio and on HTTP without auth.
   */
  scopes?: string[];
}

export type MemberRecord =
  | { kind: 'tool'; propertyKey: string; options: ToolOptions; paramTypes: unknown[] | undefined }
  | { kind: 'resource'; propertyKey: string; options: ResourceOptions; paramTypes: unknown[] | undefined }
  | { kind: 'prompt'; propertyKey: string; options: PromptOptions; paramTypes: unknown[] | undefined };

/** What a `@Complete` method completes: one argument of a prompt, or one variable of a resource template. */
export type CompletionTarget = { prompt: string; resource?: never; argument: string } | { resource: string; prompt?: never; argument: string };

/** The record of one `@Complete` method. */
export interface CompleteRecord {
  propertyKey: string;
  target: CompletionTarget;
}

/** Adds a record under `key` (`MEMBER_METADATA`, `COMPLETE_METADATA`) to the class that declares the method. */
export function recordOn<R>(target: object, key: symbol, record: R): void {
  const ctor = (target as { constructor: object }).constructor;
  const own: R[] = Reflect.getOwnMetadata(key, ctor) ?? [];
  Reflect.defineMetadata(key, [...own, record], ctor);
}

/**
 * A class and its ancestors, the oldest first: the order in which their records are read, so
 * that a subclass's own record comes last (and wins where records are merged).
 */
export function classChain(ctor: object): object[] {
  const chain: object[] = [];
  for (let c: object | null = ctor; c && c !== Function.prototype; c = Object.getPrototypeOf(c) as object | null) chain.unshift(c);
  return chain;
}

/** Adds a member record to the class that declares the method. */
export function recordMember(target: object, record: MemberRecord): void {
  recordOn(target, MEMBER_METADATA, record);
}

/** The method's `design:paramtypes`, or `undefined` when the compiler emitted none. */
export function designParamTypes(target: object, propertyKey: string | symbol): unknown[] | undefined {
  return Reflect.getMetadata('design:paramtypes', target, propertyKey) as unknown[] | undefined;
}
